/**
 * The secrets the mock knows, found in the text of a request (its path, query values, body), for
 * the journal to replace: each token's of the store and each reserved one (the control API's
 * admin token), as is or percent-encoded. Indexed by their first characters, so finding them
 * costs the text's length, however many tokens the store holds (one pattern of every secret,
 * built per request, took 0.9 s a request at 10 000 tokens).
 * @module
 */
import { REDACTED, secretForms } from '../../src/core/redact';
import { MIN_TOKEN_LENGTH } from '../../src/core/token';

/** Characters of a secret the index is keyed by: every token has at least these. */
const HEAD = MIN_TOKEN_LENGTH;
/** A presented token stands alone where no letter or digit touches it. */
const WORD_CHAR = /[A-Za-z0-9]/;

/** The forms of the secrets that start alike, and their lengths, longest first. */
interface Bucket {
  readonly forms: Set<string>;
  readonly lengths: number[];
}

export class SecretIndex {
  /**
   * The forms of every secret by their first {@link HEAD} characters. Real tokens often share a
   * longer prefix (`github_pat_`), so a bucket is found by its head and searched by length.
   */
  readonly #byHead = new Map<string, Bucket>();

  /** `secrets` are a table's (at least {@link HEAD} characters each, as the tokens table holds them). */
  constructor(secrets: Iterable<string>) {
    for (const secret of secrets) {
      for (const form of secretForms(secret)) {
        const head = form.slice(0, HEAD);
        let bucket = this.#byHead.get(head);
        if (!bucket) this.#byHead.set(head, (bucket = { forms: new Set(), lengths: [] }));
        bucket.forms.add(form);
        if (!bucket.lengths.includes(form.length)) bucket.lengths.push(form.length);
      }
    }
    for (const { lengths } of this.#byHead.values()) lengths.sort((a, b) => b - a);
  }

  /**
   * `text` with every form of every secret replaced by `[redacted]`, in one pass, so a replacement
   * is never matched again. `presented` (the token a request came with, maybe any string) is
   * replaced only where it stands alone, and only if it could be a token (at least
   * {@link HEAD} characters): a wrong token `server` made the path `/api/v1/[redacted]/members`.
   */
  redact(text: string, presented: string | undefined): string {
    const alone = presented && presented.length >= HEAD ? secretForms(presented) : [];
    let result = '';
    let copied = 0;
    for (let at = 0; at < text.length;) {
      const found = this.#at(text, at) ?? alone.find((form) => standsAlone(text, at, form));
      if (found === undefined) {
        at++;
        continue;
      }
      result += text.slice(copied, at) + REDACTED;
      at = copied = at + found.length;
    }
    return copied === 0 ? text : result + text.slice(copied);
  }

  /** The longest form of a known secret that starts at `at` in `text`. */
  #at(text: string, at: number): string | undefined {
    if (text.length - at < HEAD) return undefined;
    const bucket = this.#byHead.get(text.slice(at, at + HEAD));
    for (const length of bucket?.lengths ?? []) {
      const candidate = text.slice(at, at + length);
      if (candidate.length === length && bucket!.forms.has(candidate)) return candidate;
    }
    return undefined;
  }
}

const standsAlone = (text: string, at: number, form: string) =>
  text.startsWith(form, at) && !WORD_CHAR.test(text[at - 1] ?? '') && !WORD_CHAR.test(text[at + form.length] ?? '');
