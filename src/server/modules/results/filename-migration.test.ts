import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { workflowExecutions } from '#server/db/schema.js';
import { signUpUser } from '#server/test/client.js';
import { useTestApp } from '#server/test/harness.js';
import { migrationUpdates } from '#server/test/migrations.js';
import { addSurveyWorkflow, testAdminId } from '#server/test/test-data.js';
import { cleanFilename } from './file-check.js';

const t = useTestApp();

/** The data part of migration 0017: the UPDATEs that clean stored names. */
const updates = migrationUpdates('0017_access_ends_and_review_holds.sql');

describe('names stored before the filename sanitiser knew bidi and zero-width characters', () => {
  it('are cleaned as the sanitiser cleans them; other names are left alone', async () => {
    const { id: userId } = await signUpUser(t);
    const wf = await addSurveyWorkflow(t.database.db, await testAdminId(t));
    const names = [
      'invoice\u202Efdp.txt',
      '\u2066a\u2069b\u200E\u200F\u061C.csv',
      'zero\u200B\u200C\u200D\u2060\uFEFFwidth.png',
      'ñandú informe.pdf',
    ];
    const rows = await t.database.db
      .insert(workflowExecutions)
      .values(
        names.map((outputFilename) => ({
          workflowId: wf.id,
          userId,
          status: 'completed' as const,
          outputFilename,
        })),
      )
      .returning({ id: workflowExecutions.id });
    expect(updates).toHaveLength(2);
    for (const statement of updates) await t.database.db.execute(sql.raw(statement));
    const stored = [];
    for (const row of rows) {
      const [found] = await t.database.db
        .select({ name: workflowExecutions.outputFilename })
        .from(workflowExecutions)
        .where(eq(workflowExecutions.id, row.id));
      stored.push(found?.name);
    }
    expect(stored).toEqual(names.map((n) => cleanFilename(n)));
    expect(stored).toEqual(['invoicefdp.txt', 'ab.csv', 'zerowidth.png', 'ñandú informe.pdf']);
  });
});
