/**
 * The signing secrets this demo service holds, by workflow id: its own credential store, as an n8n instance
 * keeps the secret someone pasted into it. Only the seeding step fills it (demo/seed.ts); the routes read it
 * and nothing else, so they never look at Flujo's tables.
 */
class DemoKeyring {
  readonly #secrets = new Map<string, string>();

  /** Holds `secret` for the workflow from now on, replacing whatever was given before. */
  give(workflowId: string, secret: string): void {
    this.#secrets.set(workflowId, secret);
  }

  /** The secret given for the workflow, if any (a workflow the service was never told of gets a 401). */
  secretFor(workflowId: string): string | undefined {
    return this.#secrets.get(workflowId);
  }
}

/**
 * One per process, like the one workflow service a deployment talks to: the start-up seeding hands the
 * secrets over before the app is built, and the routes registered later read the same store.
 */
export const demoKeyring = new DemoKeyring();
