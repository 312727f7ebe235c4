import pg from 'pg';

/** The PostgreSQL server and base database name behind TEST_DATABASE_URL. */
export function postgresTarget(url: string): {
  adminUrl: string;
  base: string;
  urlFor(name: string): string;
} {
  const parsed = new URL(url);
  const base = parsed.pathname.replace(/^\//, '') || 'flujo_test';
  const urlFor = (name: string) => {
    const u = new URL(url);
    u.pathname = `/${name}`;
    return u.toString();
  };
  return { adminUrl: urlFor('postgres'), base, urlFor };
}

export const templateName = (base: string) => `${base}_tpl`;

export async function withAdminClient<T>(adminUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Database names come from our own code, never from input; quoting keeps odd characters harmless. */
export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
