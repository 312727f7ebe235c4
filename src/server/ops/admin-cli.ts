import { z } from 'zod';
import { ConfigError, loadConfig } from '../config.js';
import { EXIT_USAGE, parseCliArgs, type CliOutput } from './cli.js';
import { openConfiguredDatabase } from '../db/open.js';
import { promoteCommand, seed, setAdminCredentials } from '../db/seed.js';
import { Metrics } from '../lib/metrics.js';

const ADMIN_USAGE = `Create an admin, or replace an admin's password.

Usage:
  npm run admin -- create --email <email> --password <password (8+ characters)> [--promote-existing]

An address that already belongs to an admin gets the new password. An address that belongs to an ordinary
account is made an admin only with --promote-existing; its password is replaced too. Either way every session
of that account is signed out.`;

const ZInput = z.object({
  command: z.literal('create'),
  email: z.email(),
  password: z.string().min(8).max(128),
  promoteExisting: z.boolean(),
});

/** Exit codes: 0 done, 1 failed, 2 refused (an ordinary account without --promote-existing), 64 bad usage. */
export async function runAdminCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  out: CliOutput = console,
): Promise<number> {
  const parsed = parseCliArgs(
    argv,
    {
      email: { type: 'string' },
      password: { type: 'string' },
      'promote-existing': { type: 'boolean', default: false },
    },
    ADMIN_USAGE,
    out,
  );
  if (typeof parsed === 'number') return parsed;
  const input = ZInput.safeParse({
    command: parsed.positionals[0],
    email: parsed.values.email,
    password: parsed.values.password,
    promoteExisting: parsed.values['promote-existing'],
  });
  if (!input.success || parsed.positionals.length !== 1) {
    const problems = input.success
      ? [`  unexpected argument "${parsed.positionals[1] ?? ''}"`]
      : input.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    out.error(`${problems.join('\n')}\n\n${ADMIN_USAGE}`);
    return EXIT_USAGE;
  }
  const { email, password, promoteExisting } = input.data;
  const normalized = email.trim().toLowerCase();

  try {
    const config = loadConfig(env);
    const database = await openConfiguredDatabase(config);
    try {
      // A command serves no metrics: the credits it grants (an admin's sign-up bonus) are in the ledger.
      const deps = { db: database.db, metrics: new Metrics() };
      const outcome = await setAdminCredentials(deps, normalized, password, { promoteExisting });
      if (outcome === 'refused') {
        out.error(
          `${normalized} belongs to an ordinary account; it was not made an admin and nothing changed. ` +
            'To make that account an admin (its password is replaced and every session of it is signed ' +
            `out), run:\n  ${promoteCommand(normalized)}`,
        );
        return 2;
      }
      // The rest of a first start's data (live settings), so a fresh database is complete. The
      // admin exists by now, so no demo admin is made beside it.
      await seed({
        ...deps,
        config: { ...config, admin: { email: normalized, password }, demoWorkflows: false },
      });
      out.log(
        {
          created: `Admin ${normalized} created.`,
          'password-reset': `Password of admin ${normalized} replaced; all its sessions were signed out.`,
          promoted: `${normalized} is now an admin; its password was replaced and all its sessions were signed out.`,
        }[outcome],
      );
      return 0;
    } finally {
      await database.close();
    }
  } catch (err) {
    out.error(err instanceof ConfigError || err instanceof Error ? err.message : String(err));
    return 1;
  }
}
