import { randomBytes } from 'node:crypto';

/** A new id that sorts by creation time (newest-first queries use it as the sort key). */
export function newId(now = Date.now()): string {
  return now.toString(36).padStart(9, '0') + randomBytes(8).toString('hex');
}
