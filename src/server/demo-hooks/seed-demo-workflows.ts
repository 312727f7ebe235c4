import { asc, eq, sql } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { userProfiles, userWorkflows } from '../db/schema.js';
import { newWebhookSecret } from '../modules/workflows/secrets.js';
import { categoryName, DEMO_WORKFLOWS } from './catalog.js';

/**
 * Upserts the demo workflows (fixed ids), owned by the first admin. Content and webhook URL follow the code
 * and PUBLIC_URL on every start; what an admin may change on purpose (active, public) and the signing
 * secret are kept. Returns how many were written.
 */
export async function seedDemoWorkflows(db: Db, config: Config): Promise<number> {
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
      webhookUrl: `${config.publicUrl}/demo-hooks/${demo.slug}`,
      creditsPerExecution: demo.creditsPerExecution,
      interactionType: demo.interactionType,
      welcomeMessage: demo.welcomeMessage ?? null,
      aiPrompt: demo.aiPrompt ?? null,
      surveyQuestions: demo.surveyQuestions ?? [],
    };
    await db
      .insert(userWorkflows)
      .values({
        id: demo.id,
        userId: owner.id,
        secretToken: newWebhookSecret(),
        isPublic: true,
        isActive: true,
        ...content,
      })
      .onConflictDoUpdate({ target: userWorkflows.id, set: { ...content, updatedAt: sql`now()` } });
  }
  return DEMO_WORKFLOWS.length;
}
