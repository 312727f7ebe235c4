import { userProfiles, userWorkflows } from './schema.js';

/*
 * What a row of a list shows of the user or workflow it refers to (the contract's ZUserRef and ZWorkflowRef),
 * selected through a left join: a joined row that is gone comes back as null.
 */
export const userRefColumns = { id: userProfiles.id, email: userProfiles.email };
export const workflowRefColumns = { id: userWorkflows.id, name: userWorkflows.name };
