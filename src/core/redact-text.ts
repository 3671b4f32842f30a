/**
 * Keeps a secret out of text the SDK hands out: its log lines, the flat payloads of events and
 * observers, and the messages of the errors it makes before sending anything. The walk of any
 * value (an error with a `cause` a `fetch` threw, a body the service sent) is `redact.ts`'s,
 * which a call loads the first time it has an error to hand back.
 * @module
 */

/** What a secret is replaced by, wherever the SDK or the mock finds one. */
export const REDACTED = '[redacted]';

/**
 * The forms `secret` takes in what a request or an answer carries: as is, percent-encoded as a
 * URL's path segment or query value holds it (a token with `/` or `+` passed as an id is `%2F`,
 * `%2B` there), and escaped as a JSON string holds it (a `"` or `\` is `\"`, `\\` in a body
 * kept as text).
 */
export function secretForms(secret: string): string[] {
  return [...new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])];
}

/** Where a cut is marked in what the SDK shortens (a quoted value, a glimpse of a body, a path). */
const CUT = '…';
/** Characters of a secret's head that count as the secret cut short: fewer say next to nothing of it. */
const MIN_HEAD = 6;

/**
 * Replaces `secret` in a string: each of its forms wherever it occurs, and a head of one (at
 * least {@link MIN_HEAD} characters) where a cut left it, at the end of the string or before a
 * `…`. Text is often cut before it is redacted (a 2 KiB excerpt of a body, a value quoted to 40
 * characters), and a cut through the secret must not leave most of it.
 */
export function secretReplacer(secret: string): (text: string) => string {
  const forms = secretForms(secret);
  /** `part` without the head of a form it ends with, if any. */
  const uncut = (part: string): string => {
    for (const form of forms) {
      for (let length = Math.min(form.length - 1, part.length); length >= MIN_HEAD; length--) {
        if (part.endsWith(form.slice(0, length))) return part.slice(0, -length) + REDACTED;
      }
    }
    return part;
  };
  // Every form and every head of one holds the form's first characters: text without them is left as it is, at once.
  return (text) =>
    forms.some((form) => text.includes(form.slice(0, MIN_HEAD)))
      ? forms
          .reduce((result, form) => result.replaceAll(form, REDACTED), text)
          .split(CUT)
          .map(uncut)
          .join(CUT)
      : text;
}

/** `text` with every occurrence of `secret` replaced (see {@link secretReplacer}). */
export const redactText = (text: string, secret: string | undefined): string => (secret ? secretReplacer(secret)(text) : text);

/**
 * The SDK's own flat payloads (an event, a call as an observer sees it: strings and numbers), the
 * secret replaced in each string, as a copy when one held it; most mention no secret, and leave
 * as they are.
 */
export function redactRecord<T extends object>(record: T, secret: string | undefined): T {
  if (!secret) return record;
  const replace = secretReplacer(secret);
  const entries = Object.entries(record).map(([key, value]) => [key, typeof value == 'string' ? replace(value) : value] as const);
  return entries.some(([key, value]) => value !== (record as Record<string, unknown>)[key]) ? (Object.fromEntries(entries) as T) : record;
}

/** Deeper than any real body: cut rather than walked. */
const MAX_DATA_DEPTH = 32;

/**
 * Data as `JSON.parse` makes it (an error body's `details`, headers as a record), with every
 * occurrence of `secret` replaced in its strings and keys: plain data has no getter, hook or
 * Proxy for the walk of `redact.ts` to guard against.
 */
export function redactData<T>(value: T, secret: string | undefined): T {
  if (!secret) return value;
  const replace = secretReplacer(secret);
  const copy = (item: unknown, depth: number): unknown => {
    if (typeof item == 'string') return replace(item);
    if (typeof item != 'object' || item === null) return item;
    if (depth > MAX_DATA_DEPTH) return REDACTED;
    if (Array.isArray(item)) return item.map((each) => copy(each, depth + 1));
    return Object.fromEntries(Object.entries(item).map(([key, each]) => [replace(key), copy(each, depth + 1)]));
  };
  return copy(value, 0) as T;
}

/**
 * `error`, one the SDK made and no one has seen yet whose own properties are text (a refused
 * argument's), with every occurrence of `secret` replaced in each: in place, so its class stays.
 */
export function redactOwnText<E extends Error>(error: E, secret: string | undefined): E {
  if (!secret) return error;
  const replace = secretReplacer(secret);
  for (const key of Reflect.ownKeys(error)) {
    const value: unknown = Reflect.get(error, key);
    if (typeof value == 'string') Reflect.set(error, key, replace(value));
  }
  return error;
}
