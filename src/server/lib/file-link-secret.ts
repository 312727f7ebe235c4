import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../config.js';

const KEY_FILE = 'file-link.key';
const secrets = new Map<string, Promise<Buffer>>();

async function keptSecret(dataDir: string): Promise<Buffer> {
  const dir = resolve(dataDir, 'secrets');
  const path = join(dir, KEY_FILE);
  try {
    const text = (await readFile(path, 'utf8')).trim();
    if (text.length >= 43) return Buffer.from(text, 'base64url');
  } catch {
    // Not made yet: made below.
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    // wx: when two starts race, the first key written is the one both use (the loser reads it back).
    await writeFile(path, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return Buffer.from((await readFile(path, 'utf8')).trim(), 'base64url');
}

/**
 * The key of the signed file links: FILE_LINK_SECRET, or one made once and kept in DATA_DIR, so links stay
 * valid across restarts without any setting. Read once per process and data directory.
 */
export function fileLinkSecret(config: Pick<Config, 'fileLinkSecret' | 'dataDir'>): Promise<Buffer> {
  if (config.fileLinkSecret) return Promise.resolve(Buffer.from(config.fileLinkSecret, 'utf8'));
  let secret = secrets.get(config.dataDir);
  if (!secret) {
    secret = keptSecret(config.dataDir);
    secrets.set(config.dataDir, secret);
    // A failure (an unwritable DATA_DIR) is tried again next time rather than remembered.
    secret.catch(() => secrets.delete(config.dataDir));
  }
  return secret;
}
