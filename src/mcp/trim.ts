/**
 * A result cut to what a model's context can take, as plain JSON. Members write much of what the
 * API returns (log texts, application answers), at any length: a string past
 * {@link MAX_STRING_LENGTH} keeps its start and says, in the text itself, that it was cut and
 * how long it was; an array past {@link MAX_ARRAY_ITEMS} keeps its first items; a value nested
 * past {@link MAX_DEPTH} levels (only a field the schemas leave open can be) becomes a string
 * saying so. Each cut keeps the value's type where a schema gives one, so the result still
 * matches the tool's output schema; the cuts are listed for a note beside the result.
 * @module
 */

/** Characters of one string a result keeps. */
export const MAX_STRING_LENGTH = 4_000;
/** Items of one array a result keeps (a page has at most 100). */
export const MAX_ARRAY_ITEMS = 100;
/** Levels of nesting a result keeps: the schemas' own objects are far shallower. */
export const MAX_DEPTH = 32;

const count = (n: number) => n.toLocaleString('en-US');

/** What the text of a cut string ends with. */
export const cutMarker = (length: number) =>
  ` […cut by the MCP server: ${count(length)} characters in all, the first ${count(MAX_STRING_LENGTH)} shown]`;

/** A trimmed result: plain JSON, and where it was cut (`data[3].text`). */
export interface Trimmed {
  readonly value: unknown;
  readonly cuts: readonly string[];
}

/** The first `MAX_STRING_LENGTH` characters, never half of a surrogate pair. */
function head(text: string): string {
  const end = /[\uD800-\uDBFF]/.test(text.charAt(MAX_STRING_LENGTH - 1)) ? MAX_STRING_LENGTH - 1 : MAX_STRING_LENGTH;
  return text.slice(0, end);
}

export function trim(value: unknown): Trimmed {
  const cuts: string[] = [];
  const walk = (node: unknown, path: string, depth: number): unknown => {
    if (typeof node === 'string') {
      if (node.length <= MAX_STRING_LENGTH) return node;
      cuts.push(`${path || 'the result'} (${count(node.length)} characters, the first ${count(MAX_STRING_LENGTH)} kept)`);
      return head(node) + cutMarker(node.length);
    }
    if (typeof node !== 'object' || node === null) return node;
    if (depth >= MAX_DEPTH) {
      cuts.push(`${path} (nested deeper than ${MAX_DEPTH} levels)`);
      return `[cut by the MCP server: nested deeper than ${MAX_DEPTH} levels]`;
    }
    if (Array.isArray(node)) {
      if (node.length > MAX_ARRAY_ITEMS) cuts.push(`${path} (${count(node.length)} items, the first ${MAX_ARRAY_ITEMS} kept)`);
      return node.slice(0, MAX_ARRAY_ITEMS).map((item, index) => walk(item, `${path}[${index}]`, depth + 1));
    }
    // Object.fromEntries defines each field, so a field named `__proto__` stays a field.
    return Object.fromEntries(
      Object.entries(node)
        // As JSON.stringify: a field without a JSON value is left out.
        .filter(([, child]) => child !== undefined && typeof child !== 'function' && typeof child !== 'symbol')
        .map(([key, child]) => [key, walk(child, path ? `${path}.${key}` : key, depth + 1)]),
    );
  };
  return { value: walk(value, '', 0), cuts };
}
