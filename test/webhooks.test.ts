/**
 * `verifyWebhookSignature` (issue 32, item 2): the signature `community-server watch --forward-to`
 * sends, checked against signatures made here independently with node:crypto: right ones pass,
 * anything a sender could get wrong or forge resolves false, the caller's mistakes throw.
 */
import { createHmac } from 'node:crypto';
import { InvalidArgumentError } from 'community-server-sdk';
import { verifyWebhookSignature } from 'community-server-sdk/webhooks';
import { describe, expect, it } from 'vitest';

const SECRET = 'whsec_4f1c9a7e2b8d6053';
const BODY = JSON.stringify({ endpoint: 'logs.list', item: { id: 'l1', text: 'héllo ✓' } });
const now = () => Math.floor(Date.now() / 1000);
const sign = (body: string, t = now(), secret = SECRET) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

describe('verifyWebhookSignature', () => {
  it('accepts the signature of the body, given as text or as its bytes', async () => {
    const header = sign(BODY);
    expect(await verifyWebhookSignature(BODY, header, SECRET)).toBe(true);
    expect(await verifyWebhookSignature(new TextEncoder().encode(BODY), header, SECRET)).toBe(true);
  });

  it('refuses another secret, a body changed by one character, and a signature of another time', async () => {
    const t = now();
    expect(await verifyWebhookSignature(BODY, sign(BODY, t, 'whsec_other_secret_0001'), SECRET)).toBe(false);
    expect(await verifyWebhookSignature(BODY.replace('l1', 'l2'), sign(BODY, t), SECRET)).toBe(false);
    expect(await verifyWebhookSignature(BODY, sign(BODY, t).replace(`t=${t}`, `t=${t - 1}`), SECRET)).toBe(false);
  });

  it('refuses a signature older or newer than the tolerance (300 s by default), and takes another tolerance', async () => {
    expect(await verifyWebhookSignature(BODY, sign(BODY, now() - 290), SECRET)).toBe(true);
    expect(await verifyWebhookSignature(BODY, sign(BODY, now() - 310), SECRET)).toBe(false);
    expect(await verifyWebhookSignature(BODY, sign(BODY, now() + 310), SECRET)).toBe(false);
    expect(await verifyWebhookSignature(BODY, sign(BODY, now() - 100), SECRET, { toleranceSec: 60 })).toBe(false);
    expect(await verifyWebhookSignature(BODY, sign(BODY, now() - 1000), SECRET, { toleranceSec: 3600 })).toBe(true);
  });

  it('accepts a header with several v1 signatures of which one matches (a secret being rotated)', async () => {
    const t = now();
    const other = sign(BODY, t, 'whsec_old_secret_00001').split(',')[1];
    expect(await verifyWebhookSignature(BODY, `${sign(BODY, t)},${other}`, SECRET)).toBe(true);
    expect(await verifyWebhookSignature(BODY, `t=${t},${other}`, SECRET)).toBe(false);
  });

  it.each([
    ['no header', null],
    ['an empty header', ''],
    ['no time', () => sign(BODY).replace(/^t=\d+,/, '')],
    ['two times', () => `t=${now()},${sign(BODY)}`],
    ['a time that is no number', () => sign(BODY).replace(/^t=\d+/, 't=soon')],
    ['no signature', () => `t=${now()}`],
    ['a short signature', () => sign(BODY).slice(0, -2)],
    ['a signature that is not hex', () => sign(BODY).replace(/.$/, 'z')],
    ['a header too long to be one', () => `${sign(BODY)},${'v0=x,'.repeat(500)}`],
  ])('resolves false for %s, never throwing on what a sender controls', async (_, header) => {
    const value = typeof header === 'function' ? header() : header;
    await expect(verifyWebhookSignature(BODY, value, SECRET)).resolves.toBe(false);
  });

  it("throws InvalidArgumentError for the caller's mistakes: no secret, a body that is no text or bytes, a bad tolerance", async () => {
    const header = sign(BODY);
    await expect(verifyWebhookSignature(BODY, header, '')).rejects.toThrow(InvalidArgumentError);
    await expect(verifyWebhookSignature(BODY, header, undefined as never)).rejects.toThrow('secret must be a non-empty string');
    await expect(verifyWebhookSignature(JSON.parse(BODY) as never, header, SECRET)).rejects.toThrow('body must be');
    await expect(verifyWebhookSignature(BODY, header, SECRET, { toleranceSec: -1 })).rejects.toThrow('toleranceSec must be');
    await expect(verifyWebhookSignature(BODY, header, SECRET, { toleranceSec: Number.NaN })).rejects.toThrow(InvalidArgumentError);
  });
});
