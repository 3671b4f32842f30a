/**
 * A token's identity: what names a token wherever something is kept for it outside the client
 * (the rate-limit window of a store, the entries of a cache, a fleet's watches) without holding
 * the token itself.
 * @module
 */

/** 128 bits of the SHA-256 of `text`, in hex (32 digits): a key that names `text` without showing it. */
export async function hashKey(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest.subarray(0, 16), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * A hash of base URL and token: clients of one token on one service find the same window, the
 * same cache entries and the same fleet watches, and neither the token nor any part of it
 * reaches a store, its keys, its values, a log or a dump.
 */
export const tokenIdentity = (baseUrl: string, token: string | undefined): Promise<string> => hashKey(`${baseUrl}\n${token ?? ''}`);
