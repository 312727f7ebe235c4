import { ZWorkflowInput } from '#shared/contract/workflows.js';
import type { Db } from '#server/db/client.js';
import { createWorkflow, type WorkflowRow } from '../manage.js';

/** A public, active chatbot workflow named `name` (en) owned by the admin; `extra` overrides any field. */
export function addCatalogueWorkflow(
  db: Db,
  adminId: string,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<WorkflowRow> {
  return createWorkflow(
    db,
    ZWorkflowInput.parse({
      userId: adminId,
      name: { es: `${name} es`, en: name },
      description: { es: 'Descripción', en: 'Description' },
      category: { es: 'Ventas', en: 'Sales' },
      webhookUrl: 'https://hooks.example.com/x',
      isPublic: true,
      interactionType: 'chatbot',
      welcomeMessage: { es: 'Hola', en: 'Hi' },
      aiPrompt: 'Ask for the name',
      ...extra,
    }),
  );
}
