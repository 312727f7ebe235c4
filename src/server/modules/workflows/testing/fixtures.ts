import type { Db } from '#server/db/client.js';
import { addChatbotWorkflow } from '#server/test/test-data.js';
import type { WorkflowRow } from '../manage.js';

/** A public, active chatbot workflow named `name` (en) owned by the admin; `extra` overrides any field. */
export function addCatalogueWorkflow(
  db: Db,
  adminId: string,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<WorkflowRow> {
  return addChatbotWorkflow(db, adminId, {
    name: { es: `${name} es`, en: name },
    description: { es: 'Descripción', en: 'Description' },
    ...extra,
  });
}
