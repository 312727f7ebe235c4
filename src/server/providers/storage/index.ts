import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '#server/config.js';
import { assertStorageKey, isStorageKey, newStorageKey } from './keys.js';
import { s3FileStorage } from './s3.js';
import type { FileStorage } from './types.js';

export { isStorageKey } from './keys.js';

const isMissing = (err: unknown) => (err as { code?: unknown }).code === 'ENOENT';

/** Files under `<dataDir>/results/`. */
function localFileStorage(dataDir: string): FileStorage {
  const root = resolve(dataDir, 'results');
  const pathOf = (key: string) => {
    assertStorageKey(key);
    return join(root, key);
  };
  return {
    async save(bytes, extension) {
      const key = newStorageKey(extension);
      await mkdir(root, { recursive: true });
      // wx: never overwrite, even in the impossible case of a repeated UUID.
      await writeFile(pathOf(key), bytes, { flag: 'wx', mode: 0o640 });
      return key;
    },
    async read(key) {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async size(key) {
      try {
        const info = await stat(pathOf(key));
        return info.isFile() ? info.size : null;
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async stream(key, range) {
      const path = pathOf(key);
      // Opened before it is handed over, so a missing file is a null here rather than an error mid-answer.
      const stream = createReadStream(path, range ? { start: range.start, end: range.end } : {});
      return new Promise<Readable | null>((resolveOpen, reject) => {
        stream.once('open', () => resolveOpen(stream));
        stream.once('error', (err) => (isMissing(err) ? resolveOpen(null) : reject(err)));
      });
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    async keys() {
      try {
        return (await readdir(root)).filter(isStorageKey);
      } catch (err) {
        if (isMissing(err)) return [];
        throw err;
      }
    },
  };
}

const stores = new WeakMap<Config, FileStorage>();

/** The configured store (a bucket when S3_BUCKET is set, DATA_DIR otherwise), one per app configuration. */
export function resultStorageFor(config: Pick<Config, 'dataDir' | 'storage'>): FileStorage {
  let store = stores.get(config as Config);
  if (!store) {
    store = config.storage.kind === 's3' ? s3FileStorage(config.storage) : localFileStorage(config.dataDir);
    stores.set(config as Config, store);
  }
  return store;
}
