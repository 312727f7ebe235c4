import { asc, eq } from 'drizzle-orm';
import type { TWorkflowInput } from '#shared/contract/workflows.js';
import { adminAuditLogs } from '#server/db/schema.js';
import type { TestApp } from '#server/test/harness.js';

/** A valid chatbot form for the create page, owned by `userId`. */
export function chatbotInput(userId: string, overrides: Partial<TWorkflowInput> = {}): TWorkflowInput {
  return {
    userId,
    name: { es: 'Redactor de correos', en: 'E-mail writer' },
    description: { es: 'Escribe correos comerciales', en: 'Writes sales e-mails' },
    category: { es: 'Ventas', en: 'Sales' },
    webhookUrl: 'https://hooks.example.com/flows/writer',
    isPublic: true,
    isActive: true,
    creditsPerExecution: 1,
    interactionType: 'chatbot',
    welcomeMessage: { es: '¡Hola! ¿Qué correo necesitas?', en: 'Hi! Which e-mail do you need?' },
    aiPrompt: 'Ask for the recipient and the goal of the e-mail.',
    surveyQuestions: [],
    ...overrides,
  };
}

export async function auditRowsFor(t: TestApp, targetId: string) {
  return t.database.db
    .select()
    .from(adminAuditLogs)
    .where(eq(adminAuditLogs.targetId, targetId))
    .orderBy(asc(adminAuditLogs.createdAt));
}
