// Where the e2e server records its process id and database (one file per port, so parallel runs differ).
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** @param {string | number | undefined} port */
export function e2eServerStateFile(port) {
  return join(tmpdir(), `flujo-e2e-server-${port ?? 3100}.json`);
}
