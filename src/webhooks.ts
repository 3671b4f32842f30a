/**
 * `community-server-sdk/webhooks`: checks the deliveries of `community-server watch … --forward-to
 * URL`, which POSTs each new item of a list to your URL with the header
 * `Community-Server-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed by the
 * secret you gave it in `COMMUNITY_SERVER_WEBHOOK_SECRET`. Web Crypto only: Node, Deno, Bun,
 * browsers and edge runtimes alike. Check the body exactly as received, before parsing it.
 * @example
 * import { verifyWebhookSignature } from 'community-server-sdk/webhooks';
 *
 * export default {
 *   async fetch(request: Request, env: { WEBHOOK_SECRET: string }) {
 *     const body = await request.text();
 *     const signature = request.headers.get('community-server-signature');
 *     if (!(await verifyWebhookSignature(body, signature, env.WEBHOOK_SECRET))) return new Response('bad signature', { status: 401 });
 *     const { endpoint, item } = JSON.parse(body); // e.g. 'logs.list' and the new log
 *     return new Response(null, { status: 204 });
 *   },
 * };
 * @module community-server-sdk/webhooks
 */
import { describe } from './core/describe';
import { InvalidArgumentError } from './core/error-base';
import { bodyBytes, hmacKey, signedBytes } from './webhooks/hmac';

/**
 * Options of {@link verifyWebhookSignature}.
 * @example
 * const options: VerifyWebhookOptions = { toleranceSec: 60 }; // refuse deliveries signed more than a minute ago
 */
export interface VerifyWebhookOptions {
  /**
   * How far the signature's time may be from this clock, in seconds, either way (default 300):
   * an older delivery is refused, so one recorded and sent again later is not taken as new.
   * A delivery retried after a failure is signed anew, at its own time.
   */
  toleranceSec?: number | undefined;
}

const DEFAULT_TOLERANCE_SEC = 300;
/** Longer than any header the command sends; a longer one is refused unread. */
const MAX_HEADER_LENGTH = 2048;
const TIMESTAMP = /^\d{1,12}$/;
const SIGNATURE = /^[0-9a-f]{64}$/i;

/**
 * Whether `header` (the `Community-Server-Signature` header's value) signs `body` (the request's
 * body exactly as received: a string, or its bytes) with `secret`, at a time within
 * `toleranceSec` of now. Resolves `false` for a missing, malformed, stale or wrong signature,
 * never throwing on what a sender controls; compared in constant time. Any of several `v1=`
 * signatures may match. A `secret` that is not a non-empty string, or a bad option, throws
 * `InvalidArgumentError`: that is the caller's mistake.
 * @example
 * // node:http: read the whole body as it came, then check it before anything else
 * let body = '';
 * for await (const chunk of request) body += chunk;
 * if (!(await verifyWebhookSignature(body, request.headers['community-server-signature'] ?? null, process.env.WEBHOOK_SECRET!))) {
 *   response.writeHead(401).end();
 * }
 */
export async function verifyWebhookSignature(
  body: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<boolean> {
  if (typeof secret !== 'string' || secret === '') {
    throw new InvalidArgumentError(`secret must be a non-empty string, got ${describe(secret)}`);
  }
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
    throw new InvalidArgumentError(`body must be the request's body as a string or a Uint8Array, got ${describe(body)}`);
  }
  const { toleranceSec = DEFAULT_TOLERANCE_SEC } = options;
  if (!(typeof toleranceSec === 'number' && toleranceSec >= 0 && Number.isFinite(toleranceSec))) {
    throw new InvalidArgumentError(`toleranceSec must be a number of seconds ≥ 0, got ${describe(toleranceSec)}`);
  }
  if (typeof header !== 'string' || header.length > MAX_HEADER_LENGTH) return false;
  const fields = header.split(',').map((field) => field.trim().split('='));
  const timestamps = fields.filter(([key]) => key === 't').map(([, value]) => value ?? '');
  const signatures = fields.filter(([key, value]) => key === 'v1' && SIGNATURE.test(value ?? '')).map(([, value]) => value!);
  if (timestamps.length !== 1 || !TIMESTAMP.test(timestamps[0]!) || signatures.length === 0) return false;
  const timestamp = Number(timestamps[0]);
  if (Math.abs(Date.now() / 1000 - timestamp) > toleranceSec) return false;
  const key = await hmacKey(secret);
  const signed = signedBytes(timestamp, bodyBytes(body));
  // crypto.subtle.verify compares in constant time; each signature given is tried.
  const checks = await Promise.all(signatures.map((signature) => crypto.subtle.verify('HMAC', key, hexBytes(signature), signed)));
  return checks.includes(true);
}

/** The bytes of a hex string (already checked to be 64 hex digits). */
const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g)!, (pair) => Number.parseInt(pair, 16));
