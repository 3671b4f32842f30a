/**
 * The bin's flag values, read and checked: each bad one throws an `Error` whose message names the
 * flag, says what it takes and what it got; the bin prints it with its usage and exits 2.
 * @module
 */
import { isIP } from 'node:net';
import type { RateLimitOptions } from '../../contract/arguments';
import type { AuthErrorShape, MockTokenSource } from '../../contract/options';

/** An integer flag from `min` to `max`, or `fallback` when absent. */
export function integerOption(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) throw new Error(`--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}

const WINDOW_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000 };
/** The longest window a timer can measure. */
const MAX_WINDOW_MS = 2 ** 31 - 1;

/** `--rate-limit 20/1s`: N requests per window, the window a count of ms, s or m. */
export function rateLimitFlag(raw: string | undefined): RateLimitOptions | undefined {
  if (raw === undefined) return undefined;
  const [, limit, length, unit] = /^(\d+)\/(\d+)(ms|s|m)$/.exec(raw) ?? [];
  const options = { limit: Number(limit), windowMs: Number(length) * (WINDOW_UNITS[unit ?? ''] ?? Number.NaN) };
  if (!(options.limit >= 1 && Number.isSafeInteger(options.limit) && options.windowMs >= 1 && options.windowMs <= MAX_WINDOW_MS)) {
    throw new Error(`--rate-limit must be N/window with N ≥ 1 and a window of ms, s or m (e.g. 20/1s, 500/100ms, 100/1m), got "${raw}"`);
  }
  return options;
}

/** A flag that takes one of `choices` (`--auth-error-shape string|object`, `--tokens seeded|random`), or `undefined` when absent. */
export function choiceOption<Choice extends string>(name: string, raw: string | undefined, choices: readonly Choice[]): Choice | undefined {
  if (raw === undefined || (choices as readonly string[]).includes(raw)) return raw as Choice | undefined;
  throw new Error(`--${name} must be ${choices.map((choice) => `"${choice}"`).join(' or ')}, got "${raw}"`);
}

export const AUTH_ERROR_SHAPES: readonly AuthErrorShape[] = ['string', 'object'];
export const MOCK_TOKEN_SOURCES: readonly MockTokenSource[] = ['seeded', 'random'];

/** Whether `host` is loopback: 127.0.0.0/8, ::1 (or its IPv4-mapped form), or `localhost`. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  // The URL parser writes an IPv6 address in its shortest form: `0:0:0:0:0:0:0:1` is `::1`,
  // `::ffff:127.0.0.1` is `::ffff:7f00:1`.
  if (isIP(bare) === 6) return /^\[::(1|ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4})\]$/.test(new URL(`http://[${bare}]`).hostname);
  return false;
}
