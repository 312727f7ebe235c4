/** What other modules use of the workflows module: managing workflows and signing what is sent to them. */
export {
  createWorkflow,
  deleteWorkflow,
  rotateWorkflowSecret,
  setWorkflowActive,
  updateWorkflow,
  type WorkflowRow,
} from './manage.js';
export { headerTokenFor } from './secrets.js';
