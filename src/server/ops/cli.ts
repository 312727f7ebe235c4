import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Where a command-line tool writes; tests pass their own to read what it said. */
export interface CliOutput {
  log(message: string): void;
  error(message: string): void;
}

/** Exit code of a command called the wrong way (sysexits' EX_USAGE). */
export const EXIT_USAGE = 64;

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * Parses a tool's arguments (positionals allowed, unknown options refused, -h/--help understood). When the tool
 * has nothing more to do, returns the code to exit with instead: for a malformed call EXIT_USAGE, after writing
 * the problem and the usage text; for --help 0, after writing the usage text.
 */
export function parseCliArgs<O extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: O,
  usage: string,
  out: CliOutput,
) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { ...options, ...HELP },
    });
  } catch (err) {
    out.error(`${err instanceof Error ? err.message : String(err)}\n\n${usage}`);
    return EXIT_USAGE;
  }
  // With O still generic, TypeScript cannot see `help` among the parsed values; it is there (HELP above).
  if ((parsed.values as { help?: boolean }).help) {
    out.log(usage);
    return 0;
  }
  return parsed;
}
