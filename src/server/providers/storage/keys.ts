import { randomUUID } from 'node:crypto';

const KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,5}$/;

/** A key this app made: a UUID and a short lower-case extension, nothing that could name a path. */
export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function newStorageKey(extension: string): string {
  if (!/^[a-z0-9]{1,5}$/.test(extension)) throw new Error('invalid extension');
  return `${randomUUID()}.${extension}`;
}

export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new Error('invalid storage key');
}
