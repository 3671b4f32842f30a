/**
 * Keeps a secret out of anything the SDK hands back: a service that echoes the token in an
 * error body or header must not make the token reach a log through the error.
 * @module
 */

const REDACTED = '[redacted]';
const MAX_DEPTH = 32;

/** `value` with every occurrence of `secret` in its strings (keys too) replaced, at any depth. */
export function redact<T>(value: T, secret: string | undefined): T {
  return secret ? (redactValue(value, secret, 0) as T) : value;
}

function redactValue(value: unknown, secret: string, depth: number): unknown {
  if (typeof value === 'string') return value.includes(secret) ? value.replaceAll(secret, REDACTED) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return REDACTED; // deeper than any real error body: drop rather than walk
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secret, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [redactValue(key, secret, depth), redactValue(item, secret, depth + 1)]),
  );
}
