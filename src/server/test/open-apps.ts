/**
 * The test apps a test file has built and not yet closed. Kept apart from the harness so that the per-file
 * guard (ledger-guard.ts), which every test file loads, pulls in no server code.
 */
export interface TrackedApp {
  /** Runs the ledger reconciliation, then closes the app and its database; throws on a mismatch. */
  close(): Promise<void>;
}

export const openApps = new Set<TrackedApp>();

/** Closes (and so reconciles) every app still open; throws naming what went wrong, if anything did. */
export async function closeForgottenApps(): Promise<void> {
  const forgotten = [...openApps];
  if (forgotten.length === 0) return;
  const failures = [
    `${forgotten.length} test app(s) were never closed: call t.close() in afterAll (it checks the ledger)`,
  ];
  for (const app of forgotten) {
    openApps.delete(app);
    try {
      await app.close();
    } catch (err) {
      failures.push(err instanceof Error ? err.message : String(err));
    }
  }
  throw new Error(failures.join('\n'));
}
