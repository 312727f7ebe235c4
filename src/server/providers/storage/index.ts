import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * Where result files live. Keys are generated here (a UUID and a checked extension), never taken from a
 * filename a workflow sent, so no path can escape the store. An S3-compatible store would implement the
 * same three calls.
 */
export interface ResultStorage {
  save(bytes: Buffer, extension: string): Promise<string>;
  read(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
}

const KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,5}$/;

export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** Files under `<dataDir>/results/`. */
export function localResultStorage(dataDir: string): ResultStorage {
  const root = resolve(dataDir, 'results');
  const pathOf = (key: string) => {
    if (!isStorageKey(key)) throw new Error('invalid storage key');
    return join(root, key);
  };
  return {
    async save(bytes, extension) {
      if (!/^[a-z0-9]{1,5}$/.test(extension)) throw new Error('invalid extension');
      await mkdir(root, { recursive: true });
      const key = `${randomUUID()}.${extension}`;
      // wx: never overwrite, even in the impossible case of a repeated UUID.
      await writeFile(pathOf(key), bytes, { flag: 'wx', mode: 0o640 });
      return key;
    },
    async read(key) {
      try {
        return await readFile(pathOf(key));
      } catch {
        return null;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

const stores = new Map<string, ResultStorage>();

/** One store per data directory, shared by the routes and services of an app. */
export function resultStorageFor(dataDir: string): ResultStorage {
  let store = stores.get(dataDir);
  if (!store) {
    store = localResultStorage(dataDir);
    stores.set(dataDir, store);
  }
  return store;
}
