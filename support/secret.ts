/** Secrets: compared in constant time (tokens), and kept out of messages and logs (URL passwords). */
import { timingSafeEqual } from 'node:crypto';

/** Whether `given` equals `expected`, in a time that does not depend on where they differ. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A URL's password as written in text: `scheme://user:PASSWORD@` (user may be empty). */
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:)[^\s@]*@/gi;

/** The text with the password of every URL in it hidden (`redis://:***@host`): for every message and log line. */
export function maskSecrets(text: string): string {
  return text.replace(URL_PASSWORD, '$1***@');
}

/** The URL with its password hidden, for messages, whether it parses or not. */
export function redactUrl(url: string): string {
  const parsed = URL.parse(url);
  if (parsed === null) return maskSecrets(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
