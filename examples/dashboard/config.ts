/**
 * What the page's address asks for. Two modes:
 * - the offline mock, in this tab (the default): `?token=noCad` picks one of the mock's tokens by
 *   its role, `?latency=400` slows every answer;
 * - a server: `?baseUrl=https://api.example.com&token=<its token>` talks to it instead (it must
 *   allow this page's origin: the mock's HTTP server and the bin do).
 * Both take `?interval=5000`, the live log's milliseconds between polls.
 * @module
 */
import type { MockTokens } from 'community-server-sdk/mock';

export type Settings =
  | { readonly mode: 'mock'; readonly token: keyof MockTokens; readonly latency: number; readonly intervalMs: number }
  | { readonly mode: 'server'; readonly baseUrl: string; readonly token: string; readonly intervalMs: number };

const MOCK_TOKENS: readonly string[] = ['main', 'noCad', 'readOnly', 'expired', 'revoked'] satisfies (keyof MockTokens)[];
const DEFAULT_INTERVAL_MS = 5_000;

/** A whole number of milliseconds from the address, or `fallback` when it is absent. */
function milliseconds(query: URLSearchParams, name: string, fallback: number, min: number): number {
  const value = Number(query.get(name) ?? fallback);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be a whole number of milliseconds ≥ ${min}`);
  return value;
}

/** The settings of `url`; throws, saying what is wrong, for an address the page cannot run. */
export function readSettings(url: URL): Settings {
  const query = url.searchParams;
  const intervalMs = milliseconds(query, 'interval', DEFAULT_INTERVAL_MS, 100);
  const baseUrl = query.get('baseUrl');
  if (baseUrl !== null) {
    const token = query.get('token');
    if (!token) throw new Error('a server needs its token too: ?baseUrl=…&token=…');
    return { mode: 'server', baseUrl, token, intervalMs };
  }
  const token = query.get('token') ?? 'main';
  if (!MOCK_TOKENS.includes(token)) throw new Error(`unknown mock token "${token}": use one of ${MOCK_TOKENS.join(', ')}`);
  return { mode: 'mock', token: token as keyof MockTokens, latency: milliseconds(query, 'latency', 0, 0), intervalMs };
}
