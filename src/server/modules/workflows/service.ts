/** What other modules use of the workflows module: managing workflows, signing what is sent to them, reviews. */
export {
  createWorkflow,
  deleteWorkflow,
  rotateWorkflowSecret,
  setWorkflowActive,
  updateWorkflow,
  type WorkflowRow,
} from './manage.js';
export { headerTokenFor } from './secrets.js';
export { CARD_FIELDS, visibleTo, watchCatalogue } from './catalogue.js';
export {
  deleteReviewsOf,
  listReviewsForAdmin,
  reviewForAdmin,
  reviewsOf,
  setReviewHidden,
} from './reviews.js';
