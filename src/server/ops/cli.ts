import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Where a command-line tool writes; tests pass their own to read what it said. */
export interface CliOutput {
  log(message: string): void;
  error(message: string): void;
}

/** Exit code of a command called the wrong way (sysexits' EX_USAGE). */
export const EXIT_USAGE = 64;

/**
 * Parses a tool's arguments (positionals allowed, unknown options refused); on a malformed call writes the
 * problem and the usage text and returns null, for the caller to exit with EXIT_USAGE.
 */
export function parseCliArgs<O extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: O,
  usage: string,
  out: CliOutput,
) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options });
  } catch (err) {
    out.error(`${err instanceof Error ? err.message : String(err)}\n\n${usage}`);
    return null;
  }
}
