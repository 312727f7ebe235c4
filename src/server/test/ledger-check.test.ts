import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { creditTransactions, userProfiles } from '../db/schema.js';
import { signUpUser } from './client.js';
import { buildTestApp } from './harness.js';
import { closeForgottenApps, openApps } from './open-apps.js';

// Each case builds its own app (the close is what is tested); on a busy machine that takes a while.
const BUILDS = 120_000;

describe('the ledger reconciliation run by every test file', () => {
  it(
    'passes on books that add up',
    async () => {
      const t = await buildTestApp();
      await signUpUser(t);
      await expect(t.close()).resolves.toBeUndefined();
    },
    BUILDS,
  );

  it(
    'fails the file when a balance differs from its ledger',
    async () => {
      const t = await buildTestApp();
      const richer = await signUpUser(t);
      const poorer = await signUpUser(t);
      const { db } = t.database;
      // A balance changed without its ledger row, and a ledger row without its balance change.
      await db
        .update(userProfiles)
        .set({ credits: sql`credits + 1` })
        .where(eq(userProfiles.id, richer.id));
      await db.insert(creditTransactions).values({ userId: poorer.id, amount: 3, transactionType: 'bonus' });

      const failure = t.close();
      await expect(failure).rejects.toThrow(/Ledger reconciliation failed for 2 user/);
      await expect(failure).rejects.toThrow(new RegExp(`"id":"${richer.id}","credits":6,"ledger":5`));
      await expect(failure).rejects.toThrow(new RegExp(`"id":"${poorer.id}","credits":5,"ledger":8`));
      expect(openApps.has(t)).toBe(false);
    },
    BUILDS,
  );

  it('closes and reconciles an app a file forgot to close, and fails the file for it', async () => {
    const closed: string[] = [];
    openApps.add({ close: async () => void closed.push('clean') });
    openApps.add({
      close: async () => {
        closed.push('drifted');
        throw new Error('Ledger reconciliation failed for 1 user(s)');
      },
    });
    await expect(closeForgottenApps()).rejects.toThrow(
      /2 test app\(s\) were never closed[\s\S]*reconciliation failed/,
    );
    expect(closed).toEqual(['clean', 'drifted']);
    expect(openApps.size).toBe(0);
    await expect(closeForgottenApps()).resolves.toBeUndefined();
  });
});

describe('ledger rows are never changed by the application', () => {
  it('no server code updates or deletes credit_transactions (corrections are new rows)', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== 'migrations' && entry.name !== 'test') walk(path);
        } else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
          const text = readFileSync(path, 'utf8');
          if (
            /\.(update|delete)\(\s*creditTransactions\b/.test(text) ||
            /\b(update|delete\s+from)\s+"?credit_transactions\b/i.test(text)
          ) {
            offenders.push(path);
          }
        }
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
