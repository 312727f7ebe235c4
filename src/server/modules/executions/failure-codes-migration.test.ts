import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { workflowExecutions } from '#server/db/schema.js';
import { signUpUser } from '#server/test/client.js';
import { useTestApp } from '#server/test/harness.js';
import { migrationUpdates } from '#server/test/migrations.js';
import { addSurveyWorkflow, testAdminId } from '#server/test/test-data.js';
import { getOwnRun } from './queries.js';

const t = useTestApp();

/** The data part of the failure-code migration: its UPDATE statements. */
const updates = migrationUpdates('0020_run_failure_codes.sql');

describe('runs that failed before failure codes existed', () => {
  it('get the code their English text stood for, and the person reads it in the run language', async () => {
    const { id: userId } = await signUpUser(t);
    const wf = await addSurveyWorkflow(t.database.db, await testAdminId(t));
    const old = [
      [
        'expired',
        'No result arrived from the workflow in time',
        'timeout',
        'No result arrived from the workflow in time',
      ],
      [
        'failed',
        'The workflow service refused the run (HTTP 403)',
        'workflow_refused',
        'The workflow service refused the run (HTTP 403)',
      ],
      [
        'failed',
        'The workflow service could not be reached (HTTP 502)',
        'workflow_unreachable',
        'The workflow service could not be reached (HTTP 502)',
      ],
      [
        'failed',
        "The workflow's webhook address is not allowed: private address",
        'webhook_blocked',
        "The workflow's webhook address is not allowed: private address",
      ],
      [
        'failed',
        "The workflow's result was refused: file too large",
        'result_refused',
        "The workflow's result was refused: file too large",
      ],
      ['failed', 'Inventario no disponible', 'workflow_failed', 'Inventario no disponible'],
      ['failed', 'The workflow reported a failure', 'workflow_failed', null],
      ['completed', null, null, null],
    ] as const;
    const rows = await t.database.db
      .insert(workflowExecutions)
      .values(
        old.map(([status, errorMessage]) => ({
          workflowId: wf.id,
          userId,
          status,
          errorMessage,
          language: 'es' as const,
        })),
      )
      .returning({ id: workflowExecutions.id });
    expect(updates).toHaveLength(2);
    for (const statement of updates) await t.database.db.execute(sql.raw(statement));

    for (const [i, [, , code, detail]] of old.entries()) {
      const [row] = await t.database.db
        .select({ code: workflowExecutions.errorCode, detail: workflowExecutions.errorMessage })
        .from(workflowExecutions)
        .where(eq(workflowExecutions.id, rows[i]!.id));
      expect(row).toEqual({ code, detail });
    }
    expect(await getOwnRun(t.database.db, userId, rows[1]!.id)).toMatchObject({
      errorCode: 'workflow_refused',
      workflowMessage: null,
      errorMessage: 'El servicio del workflow no aceptó la solicitud.',
    });
    expect(await getOwnRun(t.database.db, userId, rows[5]!.id)).toMatchObject({
      errorCode: 'workflow_failed',
      workflowMessage: 'Inventario no disponible',
      errorMessage:
        'El workflow no pudo completar tu solicitud. El workflow indicó: Inventario no disponible',
    });
  });

  it('refuses a code no reader can word', async () => {
    const { id: userId } = await signUpUser(t);
    const wf = await addSurveyWorkflow(t.database.db, await testAdminId(t));
    await expect(
      t.database.db.execute(
        sql`insert into workflow_executions (workflow_id, user_id, status, error_code) values (${wf.id}, ${userId}, 'failed', 'oops')`,
      ),
    ).rejects.toThrow();
  });
});
