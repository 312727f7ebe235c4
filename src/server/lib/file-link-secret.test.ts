import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fileLinkSecret } from './file-link-secret.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('the key of the signed file links', () => {
  it('is FILE_LINK_SECRET when set, and nothing is written', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'flujo-link-'));
    dirs.push(dataDir);
    const key = await fileLinkSecret({ fileLinkSecret: 'x'.repeat(40), dataDir });
    expect(key.equals(Buffer.from('x'.repeat(40)))).toBe(true);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('otherwise is made once in DATA_DIR, readable by its owner only, and the same after a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'flujo-link-'));
    dirs.push(dataDir);
    const first = await fileLinkSecret({ fileLinkSecret: undefined, dataDir });
    expect(first.length).toBe(32);
    const file = join(dataDir, 'secrets', 'file-link.key');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // Another process (a restart) reads the same key from the file: a fresh module has no memory of it.
    vi.resetModules();
    const { fileLinkSecret: again } = await import('./file-link-secret.js');
    expect(again).not.toBe(fileLinkSecret);
    const second = await again({ fileLinkSecret: undefined, dataDir });
    expect(second.equals(first)).toBe(true);
    const other = await mkdtemp(join(tmpdir(), 'flujo-link-'));
    dirs.push(other);
    expect((await fileLinkSecret({ fileLinkSecret: undefined, dataDir: other })).equals(first)).toBe(false);
  });
});
