/**
 * A token's identity: what names a token wherever something is kept for it outside the client
 * (the rate-limit window of a store, the entries of a cache) without holding the token itself.
 * @module
 */

/**
 * A hash of base URL and token: clients of one token on one service find the same window and
 * the same cache entries, and neither the token nor any part of it reaches a store, its keys,
 * its values, a log or a dump. 32 hex digits (128 bits of SHA-256).
 */
export async function tokenIdentity(baseUrl: string, token: string | undefined): Promise<string> {
  const bytes = new TextEncoder().encode(`${baseUrl}\n${token ?? ''}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest.subarray(0, 16), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
