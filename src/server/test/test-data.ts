import { eq } from 'drizzle-orm';
import { beforeAll } from 'vitest';
import { ZWorkflowInput, type TWorkflowInput } from '#shared/contract/workflows.js';
import type { Db } from '#server/db/client.js';
import { adminConfig, userProfiles } from '#server/db/schema.js';
import { createWorkflow, type WorkflowRow } from '#server/modules/workflows/manage.js';
import { TestClient } from './client.js';
import { TEST_ADMIN, useTestApp, type TestApp } from './harness.js';

/** The test admin's id: the owner of the workflows the tests make. */
export async function testAdminId(t: TestApp): Promise<string> {
  const [row] = await t.database.db
    .select({ id: userProfiles.id })
    .from(userProfiles)
    .where(eq(userProfiles.email, TEST_ADMIN.email));
  if (!row) throw new Error('the test admin is missing');
  return row.id;
}

/**
 * A public survey workflow of one text question ("¿Nombre?"), one credit a run, owned by `userId`, as the
 * admin API would take it; `overrides` win.
 */
export function surveyWorkflowInput(userId: string, overrides: Partial<TWorkflowInput> = {}): TWorkflowInput {
  return {
    userId,
    name: { es: 'Resumen', en: 'Summary' },
    description: { es: 'Resume una conversación', en: 'Summarises a conversation' },
    category: { es: 'Productividad', en: 'Productivity' },
    webhookUrl: 'https://hooks.example/test',
    isPublic: true,
    interactionType: 'survey',
    surveyQuestions: [{ id: 'q1', question: { es: '¿Nombre?', en: 'Name?' }, type: 'text', options: [] }],
    ...overrides,
  };
}

/** Creates the workflow `surveyWorkflowInput` describes (checked by the contract, as the admin API does). */
export function addSurveyWorkflow(
  db: Db,
  userId: string,
  overrides: Partial<TWorkflowInput> = {},
): Promise<WorkflowRow> {
  return createWorkflow(db, ZWorkflowInput.parse(surveyWorkflowInput(userId, overrides)));
}

/**
 * A public chatbot workflow (a welcome message and a prompt, no questions), one credit a run, owned by
 * `userId`, as the admin API would take it; `overrides` win.
 */
export function chatbotWorkflowInput(
  userId: string,
  overrides: Partial<TWorkflowInput> = {},
): TWorkflowInput {
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

/** Creates the workflow `chatbotWorkflowInput` describes (checked by the contract, as the admin API does). */
export function addChatbotWorkflow(
  db: Db,
  userId: string,
  overrides: Partial<TWorkflowInput> = {},
): Promise<WorkflowRow> {
  return createWorkflow(db, ZWorkflowInput.parse(chatbotWorkflowInput(userId, overrides)));
}

/**
 * Runs `fn` with the admin config entry `key` set to `value` (the app reads it live), and puts the value it had
 * back however `fn` ends, so the file's other tests see the entry as they found it.
 */
export async function withConfig<T>(
  t: Pick<TestApp, 'database'>,
  key: string,
  value: unknown,
  fn: () => Promise<T>,
): Promise<T> {
  const db = t.database.db;
  const entry = eq(adminConfig.key, key);
  const [before] = await db.select({ value: adminConfig.value }).from(adminConfig).where(entry);
  if (!before) throw new Error(`no admin config entry ${key}`);
  await db.update(adminConfig).set({ value }).where(entry);
  try {
    return await fn();
  } finally {
    await db.update(adminConfig).set({ value: before.value }).where(entry);
  }
}

export interface AdminApp {
  t: TestApp;
  /** The test admin, signed in before the file's tests. */
  admin: TestClient;
  /** The test admin's id (known once the tests run). */
  adminId(): string;
}

/** The file's app (`useTestApp`) with the test admin signed in. */
export function useAdminApp(env: Record<string, string> = {}): AdminApp {
  const t = useTestApp(env);
  // The client reads the app when it sends, so it can exist before the app is built.
  const admin = new TestClient(t);
  let id: string | undefined;
  beforeAll(async () => {
    const res = await admin.post('/api/auth/signin', TEST_ADMIN);
    if (res.statusCode !== 200) throw new Error(`admin signin failed: ${res.statusCode} ${res.body}`);
    id = await testAdminId(t);
  });
  return {
    t,
    admin,
    adminId: () => {
      if (!id) throw new Error('the admin is signed in before the tests run');
      return id;
    },
  };
}
