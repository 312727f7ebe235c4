import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../config.js';
import { ensureAdmin, seed } from '../db/seed.js';
import { openConfiguredDatabase } from '../db/open.js';

const USAGE = 'Usage: npm run admin -- create --email <email> --password <password (8+ characters)>';

async function run(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { email: { type: 'string' }, password: { type: 'string' } },
  });
  const input = z
    .object({ command: z.literal('create'), email: z.email(), password: z.string().min(8).max(128) })
    .safeParse({ command: positionals[0], email: values.email, password: values.password });
  if (!input.success) {
    console.error(
      `${USAGE}\n${input.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
    return 2;
  }
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    await seed(database.db, { ...config, admin: undefined, demoWorkflows: false });
    const outcome = await ensureAdmin(database.db, input.data.email, input.data.password, 'reset');
    console.log(
      `Admin ${input.data.email.toLowerCase()} ${outcome === 'created' ? 'created' : 'promoted (password reset)'}.`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

run().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  },
);
