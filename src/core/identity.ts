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

/** 32 bits of `h`, mixed so that every input bit reaches every output bit (MurmurHash3's finaliser). */
const mix = (h: number) => {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};
const hex8 = (n: number) => n.toString(16).padStart(8, '0');

/**
 * A 64-bit digest of `text`, in hex (16 digits), computed at once: two multiplicative lanes over
 * its UTF-16 code units, each finished by {@link mix}. One-way (a token is far longer than 64
 * bits, so countless texts share a digest and none can be read back from it) and the same in
 * every process and runtime; not a cryptographic hash, which nothing here needs: it scopes keys,
 * and an API token is a random secret no one can guess to test against it.
 */
function digest64(text: string): string {
  let a = 0x811c9dc5;
  let b = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b + unit, 0x5bd1e995) ^ (b >>> 15);
  }
  const high = mix(a ^ Math.imul(b, 0x27d4eb2d));
  return hex8(high) + hex8(mix(b ^ high));
}

/**
 * What names base URL and token where anyone may read it (the keys of queries: devtools, a
 * persisted cache, the HTML of a server render), there at once: the base URL, `#`, and a 64-bit
 * one-way digest of base URL and token ({@link digest64}), e.g.
 * `https://api.example.com#3f9a0c1d5e7b2a48`. The same in every process, so a server render's
 * data hydrates under the browser's keys; two tokens, two scopes.
 */
export const tokenScope = (baseUrl: string, token: string | undefined): string => `${baseUrl}#${digest64(named(baseUrl, token))}`;
