import { sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.js';
import { workflowRunTally } from '#server/db/schema.js';

// startRun notes each run it starts in workflow_run_tally, in the statement that charges it.

/** At most this many started runs are counted per pass, so one pass stays a short transaction. */
const BATCH = 10_000;

/**
 * Moves noted runs into their workflows' execution_count, in one statement: the rows it deletes are the
 * rows it counts, so a crash counts them entirely or not at all, and instances running this at once each
 * take different rows (SKIP LOCKED). Runs of a deleted workflow are dropped with their notes. Called by the
 * tally job and before the admin screens read the counters, so those always show every committed start.
 */
export async function tallyRuns(db: DbOrTx): Promise<void> {
  await db.execute(sql`
    with noted as (
      delete from ${workflowRunTally}
      where ctid in (select ctid from ${workflowRunTally} limit ${BATCH} for update skip locked)
      returning workflow_id
    ), counts as (
      select workflow_id, count(*)::int as n from noted group by workflow_id
    )
    update user_workflows w set execution_count = w.execution_count + counts.n
    from counts where w.id = counts.workflow_id`);
}
