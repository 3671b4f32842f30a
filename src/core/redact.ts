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

/**
 * An error safe to keep as a `cause`: `error` itself when nothing in its chain mentions the
 * secret, else a plain copy of the chain with the secret replaced (a fetch implementation may
 * quote request headers in its own messages).
 */
export function redactCause(error: unknown, secret: string | undefined, depth = 0): unknown {
  if (!secret || !(error instanceof Error) || depth >= MAX_DEPTH || !mentions(error, secret, depth)) return error;
  const copy = new Error(redact(error.message, secret), { cause: redactCause(error.cause, secret, depth + 1) });
  copy.name = error.name;
  if (error.stack !== undefined) copy.stack = redact(error.stack, secret);
  return copy;
}

function mentions(error: unknown, secret: string, depth: number): boolean {
  if (!(error instanceof Error) || depth >= MAX_DEPTH) return typeof error === 'string' && error.includes(secret);
  return `${error.message}\n${error.stack ?? ''}`.includes(secret) || mentions(error.cause, secret, depth + 1);
}
