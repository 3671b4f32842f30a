/**
 * A token's identity: what names a token wherever something is kept for it outside the client
 * (the rate-limit window of a store, the entries of a cache, a fleet's watches, the keys of
 * queries) without holding the token itself.
 * @module
 */

/** 128 bits of the SHA-256 of `text`, in hex (32 digits): a key that names `text` without showing it. */
export async function hashKey(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest.subarray(0, 16), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Base URL and token in one text, as both names below take them. */
const named = (baseUrl: string, token: string | undefined) => `${baseUrl}\n${token ?? ''}`;

/**
 * A hash of base URL and token: clients of one token on one service find the same window, the
 * same cache entries and the same fleet watches, and neither the token nor any part of it
 * reaches a store, its keys, its values, a log or a dump.
 */
export const tokenIdentity = (baseUrl: string, token: string | undefined): Promise<string> => hashKey(named(baseUrl, token));

/** The scope of each base URL and token this process has met. */
const scopes = new Map<string, string>();

/**
 * What names base URL and token where anyone may read it (the keys of queries: devtools, a
 * persisted cache, the HTML of a server render), there at once: the base URL, `#`, and a
 * stand-in for the token, drawn the first time this process meets them, then the same for every
 * client of them. A hash would let a guess of the token be checked against it; the stand-in is
 * no function of the token, so it tells nothing of it. Random, so another process (a server
 * render, a persisted cache) draws another; numbered, so two in this process differ even under a
 * `Math.random` a test made constant.
 */
export function tokenScope(baseUrl: string, token: string | undefined): string {
  const key = named(baseUrl, token);
  let scope = scopes.get(key);
  if (!scope) scopes.set(key, (scope = `${baseUrl}#${Math.random().toString(36).slice(2)}${scopes.size}`));
  return scope;
}
