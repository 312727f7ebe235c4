/** What other modules use of the workflows module: managing workflows, signing what is sent to them, reviews. */
export {
  createWorkflow,
  deleteWorkflow,
  rotateWorkflowSecret,
  setWorkflowActive,
  setWorkflowArchived,
  updateWorkflow,
  type WorkflowRow,
} from './manage.js';
export { getVersion, listVersions, recordVersionIfChanged } from './versions.js';
export { headerTokenFor, newWebhookSecret } from './secrets.js';
export { CARD_FIELDS, publicWorkflowDetail, visibleTo, watchCatalogue } from './catalogue.js';
export {
  deleteReviewsOf,
  listReviewsForAdmin,
  reviewForAdmin,
  reviewsOf,
  setReviewHidden,
} from './reviews.js';
