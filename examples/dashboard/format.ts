/** How the dashboard writes values: times in UTC (so every viewer reads the same), errors in words. */
import { toDate } from 'community-server-sdk';
import { ApiError } from 'community-server-sdk/core';

/** `2025-12-31 14:33`, or an em dash for a timestamp that is absent. */
export function formatTime(timestamp: number | null | undefined): string {
  const date = toDate(timestamp);
  return date ? date.toISOString().slice(0, 16).replace('T', ' ') : '—';
}

/** `2025-12-31`, or an em dash for a timestamp that is absent. */
export function formatDay(timestamp: number | null | undefined): string {
  return formatTime(timestamp).slice(0, 10);
}

/** `1 token`, `4 tokens`. */
export const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** A field of open type (`any` in the spec) as text: strings as they are, anything else as a dash. */
export function text(value: unknown): string {
  return typeof value === 'string' && value !== '' ? value : '—';
}

/** How many items an open-typed list field holds, or a dash when it is not a list. */
export function count(value: unknown): string {
  return Array.isArray(value) ? String(value.length) : '—';
}

/**
 * An error as a person can read it. Service errors keep their status and code, which is what
 * someone would search the API docs for; other errors (transport, validation) by name and message.
 */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const code = error.code === 'unknown' ? '' : ` ${error.code}`; // "unknown": the body named no code
    return `${error.name} (${error.status}${code}): ${error.message}`;
  }
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
