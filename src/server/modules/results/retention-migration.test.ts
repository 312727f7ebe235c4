import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { workflowExecutions } from '#server/db/schema.js';
import { signUpUser } from '#server/test/client.js';
import { useTestApp } from '#server/test/harness.js';
import { migrationUpdates } from '#server/test/migrations.js';
import { addSurveyWorkflow, testAdminId } from '#server/test/test-data.js';

const t = useTestApp();

/** The data part of the retention migration: its UPDATE statement. */
const updates = migrationUpdates('0013_result_file_retention.sql');

describe('result files stored before retention existed', () => {
  it('get 30 days from their run end; runs without a stored file get no expiry', async () => {
    const { id: userId } = await signUpUser(t);
    const wf = await addSurveyWorkflow(t.database.db, await testAdminId(t));
    const ended = new Date('2026-10-01T12:00:00Z');
    const started = new Date('2026-10-01T11:00:00Z');
    const rows = await t.database.db
      .insert(workflowExecutions)
      .values([
        {
          workflowId: wf.id,
          userId,
          status: 'completed',
          resultPath: 'a.csv',
          createdAt: started,
          completedAt: ended,
        },
        { workflowId: wf.id, userId, status: 'completed', resultPath: 'b.csv', createdAt: started },
        {
          workflowId: wf.id,
          userId,
          status: 'completed',
          outputType: 'text',
          createdAt: started,
          completedAt: ended,
        },
      ])
      .returning({ id: workflowExecutions.id });
    expect(updates).toHaveLength(1);
    for (const statement of updates) await t.database.db.execute(sql.raw(statement));
    const expiry = async (id: string) =>
      (
        await t.database.db
          .select({ at: workflowExecutions.fileExpiresAt })
          .from(workflowExecutions)
          .where(eq(workflowExecutions.id, id))
      )[0]?.at?.toISOString() ?? null;
    expect(await expiry(rows[0]!.id)).toBe('2026-10-31T12:00:00.000Z');
    expect(await expiry(rows[1]!.id)).toBe('2026-10-31T11:00:00.000Z');
    expect(await expiry(rows[2]!.id)).toBeNull();
  });
});
