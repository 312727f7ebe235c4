import { join } from 'node:path';
import { openDatabase, type Database, type Db } from '#server/db/client.js';
import { userProfiles, users } from '#server/db/schema.js';
import { hashPassword } from '#server/modules/auth/passwords.js';
import { NO_DEVICE } from '#server/lib/device.js';
import { openSession } from '#server/modules/auth/service.js';
import { Metrics } from '#server/lib/metrics.js';
import { applyLedgerEntry } from '#server/modules/credits/ledger.js';
import { createWorkflow, type WorkflowRow } from '#server/modules/workflows/manage.js';
import { CATEGORIES } from '#shared/contract/categories.js';
import type { DatabaseTarget } from './server.js';

/** Opens (and migrates) the database the server will use; PGlite lives in DATA_DIR/pglite, as main.ts has it. */
export function openTarget(target: DatabaseTarget): Promise<Database> {
  return target.kind === 'postgres'
    ? openDatabase({ kind: 'postgres', url: target.url, poolSize: 4 })
    : openDatabase({ kind: 'pglite', dataDir: join(target.dataDir, 'pglite') });
}

export interface SeededUser {
  id: string;
  email: string;
  /** The session cookie's value. */
  token: string;
}

/** The seeding runs beside the measured server, not in it: what it grants is counted nowhere that is read. */
const seedMetrics = new Metrics();

/** Accounts with sessions and a balance given through the ledger, as a purchase would. */
export async function seedUsers(
  db: Db,
  options: { count: number; credits: number; prefix: string; isAdmin?: boolean },
): Promise<SeededUser[]> {
  const hashedPassword = await hashPassword('bench-password-not-used');
  const seeded: SeededUser[] = [];
  const now = new Date();
  for (let i = 0; i < options.count; i++) {
    const email = `${options.prefix}-${i}@bench.example`;
    const [user] = await db.insert(users).values({ email, hashedPassword }).returning({ id: users.id });
    await db.insert(userProfiles).values({
      id: user!.id,
      email,
      fullName: `${options.prefix} ${i}`,
      isAdmin: options.isAdmin ?? false,
    });
    if (options.credits > 0) {
      await db.transaction(async (tx) => {
        await applyLedgerEntry(
          tx,
          {
            userId: user!.id,
            amount: options.credits,
            type: 'purchase',
            notes: 'bench seed',
          },
          seedMetrics,
        );
      });
    }
    seeded.push({ id: user!.id, email, token: await openSession(db, user!.id, NO_DEVICE, now) });
  }
  return seeded;
}

const WORDS_EN = [
  'invoices',
  'leads',
  'reports',
  'contracts',
  'emails',
  'tickets',
  'payroll',
  'social posts',
];
const WORDS_ES = ['facturas', 'clientes', 'informes', 'contratos', 'correos', 'tickets', 'nóminas', 'redes'];

/**
 * Public, active workflows with catalogue-sized bilingual texts (about 420 bytes of JSON each). Their
 * webhook points at a closed port: starting a run never calls it.
 */
export async function seedWorkflows(db: Db, ownerId: string, count: number): Promise<WorkflowRow[]> {
  const rows: WorkflowRow[] = [];
  for (let i = 0; i < count; i++) {
    const category = CATEGORIES[i % CATEGORIES.length]!.name;
    const en = WORDS_EN[i % WORDS_EN.length]!;
    const es = WORDS_ES[i % WORDS_ES.length]!;
    const survey = i % 2 === 1;
    rows.push(
      await createWorkflow(db, {
        userId: ownerId,
        name: { en: `Automate ${en} #${i + 1}`, es: `Automatiza ${es} n.º ${i + 1}` },
        description: {
          en: `Collects your ${en}, checks them against your rules and sends a tidy summary to your team every morning.`,
          es: `Reúne tus ${es}, los revisa según tus reglas y envía un resumen ordenado a tu equipo cada mañana.`,
        },
        category,
        webhookUrl: 'http://127.0.0.1:9/never-called',
        isPublic: true,
        isActive: true,
        creditsPerExecution: 1 + (i % 3),
        interactionType: survey ? 'survey' : 'chatbot',
        welcomeMessage: survey ? null : { en: 'Hi! What should I automate?', es: '¡Hola! ¿Qué automatizo?' },
        aiPrompt: survey ? null : 'Ask what the user needs, then end with the completion marker.',
        surveyQuestions: survey
          ? [
              {
                id: 'q1',
                question: { en: 'Which account?', es: '¿Qué cuenta?' },
                type: 'text',
                options: [],
              },
            ]
          : [],
      }),
    );
  }
  return rows;
}
