/**
 * `watch --forward-to URL`: each new item POSTed to a receiver, in order, signed, and retried
 * until it is taken. The body is `{ "endpoint": "logs.list", "item": {…} }`; the header
 * `Community-Server-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` is made
 * anew for each attempt (a retry is not refused as stale). Any 2xx is delivered; anything else
 * (another status, a redirect, a network failure, no answer within the attempt's timeout) is
 * retried with backoff, doubling from {@link ForwardOptions.firstBackoffMs} to a cap, jittered,
 * and the next item waits: the receiver sees the items in the order they entered the list.
 * @module
 */
import { sleep } from '../../core/sleep';
import { signatureHeader } from '../../webhooks/hmac';
import { Interrupted } from '../failure';

export interface ForwardOptions {
  readonly url: URL;
  readonly secret: string;
  /** The list's dotted name, sent as `endpoint`. */
  readonly endpoint: string;
  /** Ends the waits between attempts (Ctrl-C); an attempt in flight is let finish, within its timeout. */
  readonly signal: AbortSignal;
  /** Where each failed attempt is reported (one line, without the line end). */
  readonly report: (line: string) => Promise<void>;
  /** How long an attempt may take (default 10 s, as GitHub's webhooks give a receiver). */
  readonly attemptTimeoutMs?: number;
  /** The wait after the first failure (default 500 ms); it doubles after each. */
  readonly firstBackoffMs?: number;
  /** The longest wait between attempts (default 30 s). */
  readonly maxBackoffMs?: number;
}

export const SIGNATURE_HEADER = 'community-server-signature';

/** A receiver that answered, or did not, other than with a 2xx. */
class DeliveryFailure extends Error {}

/** Where a delivery goes, for messages: the URL without its credentials and query (either may hold a secret). */
const shown = (url: URL) => `${url.origin}${url.pathname}`;

export class Forwarder {
  readonly #options: ForwardOptions;

  constructor(options: ForwardOptions) {
    this.#options = options;
  }

  /** Delivers `item`, retrying until the receiver takes it; throws `Interrupted` if the signal fires first. */
  async deliver(item: unknown): Promise<void> {
    const { signal, report, firstBackoffMs = 500, maxBackoffMs = 30_000 } = this.#options;
    const body = JSON.stringify({ endpoint: this.#options.endpoint, item });
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#attempt(body);
      } catch (error) {
        if (!(error instanceof DeliveryFailure)) throw error;
        const base = Math.min(maxBackoffMs, firstBackoffMs * 2 ** Math.min(attempt - 1, 30));
        const waitMs = Math.round(base * (0.8 + Math.random() * 0.4));
        await report(
          `delivery to ${shown(this.#options.url)} failed (${error.message}); attempt ${attempt + 1} in ${(waitMs / 1000).toFixed(1)} s`,
        );
        await sleep(waitMs, signal).catch(() => {
          throw new Interrupted('interrupted');
        });
      }
    }
  }

  /** One POST; a `DeliveryFailure` unless the receiver answers 2xx. */
  async #attempt(body: string): Promise<void> {
    const { url, secret, attemptTimeoutMs = 10_000 } = this.#options;
    const signature = await signatureHeader(body, secret, Math.floor(Date.now() / 1000));
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature, 'user-agent': 'community-server watch' },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(attemptTimeoutMs),
      });
    } catch (error) {
      const timedOut = (error as { name?: string }).name === 'TimeoutError';
      const code = (error as { cause?: { code?: unknown } }).cause?.code;
      throw new DeliveryFailure(timedOut ? `no answer within ${attemptTimeoutMs} ms` : typeof code === 'string' ? code : 'network error');
    }
    await response.body?.cancel().catch(() => undefined); // the answer's body is not read: free the connection
    if (response.status < 200 || response.status > 299) {
      throw new DeliveryFailure(
        response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)
          ? 'a redirect'
          : `status ${response.status}`,
      );
    }
  }
}
