/**
 * A value in a message: quoted and cut short when it is text, named by its kind otherwise; and
 * anything thrown, in one line. A leaf module, so every part of the SDK can quote what it
 * refuses or what a service sent.
 * @module
 */

/** Shows a bad value in a message without dumping it whole. */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  // Every other kind starts with a consonant: function, symbol, bigint.
  return Array.isArray(value) ? 'an array' : typeof value == 'object' ? 'an object' : `a ${typeof value}`;
}

/** A one-line description of any thrown value, never throwing itself (a hostile `toString` or getter). */
export function describeThrown(thrown: unknown): string {
  try {
    return String(thrown instanceof Error ? thrown.message : thrown);
  } catch {
    return 'an unprintable value';
  }
}
