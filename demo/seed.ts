import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../src/server/db/client.js';
import { userProfiles, userWorkflows } from '../src/server/db/schema.js';
import { newWebhookSecret } from '../src/server/modules/workflows/secrets.js';
import { categoryName, DEMO_WORKFLOWS } from './catalog.js';
import { demoKeyring } from './hooks/keyring.js';

/**
 * Upserts the demo workflows (fixed ids), owned by the first admin, and hands the demo service the signing
 * secret of each, as an operator pastes a new workflow's secret into n8n. Content and webhook URL follow the
 * code and PUBLIC_URL on every start; what an admin may change on purpose (active, public) and the signing
 * secret are kept. Returns how many were written.
 *
 * This is the only place the demo touches the database: creating workflows is the operator's act, while the
 * services answering calls know no more than the secrets given here.
 */
export async function seedDemoWorkflows(db: Db, options: { publicUrl: string }): Promise<number> {
  const [owner] = await db
    .select({ id: userProfiles.id })
    .from(userProfiles)
    .where(eq(userProfiles.isAdmin, true))
    .orderBy(asc(userProfiles.createdAt))
    .limit(1);
  if (!owner) return 0;
  for (const demo of DEMO_WORKFLOWS) {
    const content = {
      name: demo.name,
      description: demo.description,
      category: categoryName(demo.categoryKey),
      webhookUrl: `${options.publicUrl}/demo-hooks/${demo.slug}`,
      creditsPerExecution: demo.creditsPerExecution,
      interactionType: demo.interactionType,
      welcomeMessage: demo.welcomeMessage ?? null,
      aiPrompt: demo.aiPrompt ?? null,
      surveyQuestions: demo.surveyQuestions ?? [],
    };
    // The stored secret comes back, not the one generated here: on a restart with an existing database (or when
    // another instance seeded first) the row keeps its secret, and that is the one Flujo signs with.
    const [stored] = await db
      .insert(userWorkflows)
      .values({
        id: demo.id,
        userId: owner.id,
        secretToken: newWebhookSecret(),
        isPublic: true,
        isActive: true,
        ...content,
      })
      .onConflictDoUpdate({ target: userWorkflows.id, set: { ...content, updatedAt: sql`now()` } })
      .returning({ secret: userWorkflows.secretToken });
    if (stored) demoKeyring.give(demo.id, stored.secret);
  }
  return DEMO_WORKFLOWS.length;
}
