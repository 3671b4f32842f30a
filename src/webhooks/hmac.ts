/**
 * HMAC-SHA256 with Web Crypto (Node, Deno, Bun, browsers, edge runtimes): the signature of a
 * webhook delivery, `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, made by the command
 * (`community-server watch --forward-to`) and checked by `verifyWebhookSignature`.
 * @module
 */

const encoder = new TextEncoder();

/** The bytes signed for a delivery at `timestamp`: `"<t>."` followed by the body's bytes. */
export function signedBytes(timestamp: number, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${timestamp}.`);
  const bytes = new Uint8Array(prefix.length + body.length);
  bytes.set(prefix);
  bytes.set(body, prefix.length);
  return bytes;
}

/** `secret` as an HMAC-SHA256 key that signs and verifies. */
export const hmacKey = (secret: string): Promise<CryptoKey> =>
  crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);

/** The body as bytes: a string as UTF-8. */
export const bodyBytes = (body: string | Uint8Array): Uint8Array => (typeof body === 'string' ? encoder.encode(body) : body);

/** The value of the `Community-Server-Signature` header for `body` at `timestamp` (Unix seconds). */
export async function signatureHeader(body: string, secret: string, timestamp: number): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), signedBytes(timestamp, bodyBytes(body))));
  return `t=${timestamp},v1=${Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
