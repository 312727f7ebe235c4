import pg from 'pg';
import { PG_ADMIN_URL, pgUrl } from './paths.js';

export async function withPg<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Names come from the benchmarks themselves (`flujo_bench_*`), never from input. */
function checkName(name: string): string {
  if (!/^flujo_bench_[a-z0-9_]+$/.test(name)) throw new Error(`not a bench database name: ${name}`);
  return name;
}

/** A new, empty database (dropped first if a previous run left it); answers its URL. */
export async function createDatabase(name: string): Promise<string> {
  await withPg(PG_ADMIN_URL, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${checkName(name)} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${checkName(name)}`);
  });
  return pgUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  await withPg(PG_ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${checkName(name)} WITH (FORCE)`));
}
