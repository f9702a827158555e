/** Comparing secrets (tokens) in constant time. */
import { timingSafeEqual } from 'node:crypto';

/** Whether `given` equals `expected`, in a time that does not depend on where they differ. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
