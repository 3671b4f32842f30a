/**
 * The seeded randomness every table draws from: a private faker per stream, and the few shapes
 * rows need. Nothing here reads the clock or `Math.random`, so a seed gives the same rows on
 * every machine.
 * @module
 */
import type { Faker } from '@faker-js/faker';
import { faker as englishFaker } from '@faker-js/faker/locale/en';
import { toArray, type Sequence } from '../rows/sequence';
import { ASIDE_STREAM, RUNTIME_STREAM } from './streams';

/**
 * The first instant of the seeded world: every timestamp (Unix seconds) is at or after it,
 * 2023-01-01 UTC. Fixed, so a seed gives the same data whatever the clock says.
 * @example
 * const member = mock.store.main.members.all()[0]!;
 * expect(member.createdAt).toBeGreaterThanOrEqual(WORLD_START);
 */
export const WORLD_START = 1_672_531_200;
/**
 * The last instant of the seeded world, 2026-01-01 UTC: no seeded timestamp is later.
 * @example
 * const newest = mock.store.main.logs.all()[0]!; // lists are newest first
 * expect(newest.createdAt).toBeLessThanOrEqual(WORLD_END);
 */
export const WORLD_END = 1_767_225_600;

/** A private faker, so seeding it never disturbs a caller's own `faker`. */
export function createFaker(): Faker {
  // The `Faker` class is only exported by the package root, which loads every locale (~200 ms in
  // Node); the English instance's constructor is the same class.
  const FakerClass = englishFaker.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker;
  return new FakerClass({ locale: englishFaker.rawDefinitions });
}

/** A faker seeded with `stream` (e.g. `[seed, server, group]`): one independent sequence. */
export function seededFaker(stream: number[]): Faker {
  const f = createFaker();
  f.seed(stream);
  return f;
}

/** A seeded faker stream for values the mock makes at run time (new tokens, latency jitter). */
export function runtimeFaker(seed: number): Faker {
  return seededFaker([seed, RUNTIME_STREAM, 0]);
}

/** Draws from a seeded faker with the few shapes the rows need (the world's, and the activity's). */
export class Draw {
  /** `stream` names the faker's seed, so `aside` can derive a stream of its own from it. */
  constructor(
    readonly f: Faker,
    private readonly stream: readonly number[] = [],
  ) {}
  #aside: Draw | undefined;
  /**
   * A second, independent stream beside this one, for fields added to rows after their seeding
   * was fixed: drawing them here leaves every draw of this stream (ids, order) as it was.
   */
  get aside(): Draw {
    return (this.#aside ??= new Draw(seededFaker([...this.stream, ASIDE_STREAM])));
  }
  uuid = () => this.f.string.uuid();
  int = (min: number, max: number) => this.f.number.int({ min, max });
  chance = (p: number) => this.f.number.float({ min: 0, max: 1 }) < p;
  /** One of `items`, drawn as faker's `helpers.arrayElement` draws (a seed picks what it always picked), read by position. */
  pick = <T>(items: Sequence<T>): T => {
    if (items.length === 0) throw new Error('Cannot pick from an empty list');
    return items.at(items.length > 1 ? this.f.number.int({ max: items.length - 1 }) : 0)!;
  };
  /** Between `min` and `max` of `items`, drawn as faker's `helpers.arrayElements` draws: it copies `items`, so for short lists. */
  some = <T>(items: Sequence<T>, min: number, max: number): T[] =>
    items.length === 0
      ? []
      : this.f.helpers.arrayElements(toArray(items), { min: Math.min(min, items.length), max: Math.min(max, items.length) });
  snowflake = () => this.f.string.numeric({ length: 18, allowLeadingZeros: false });
  /** A timestamp anywhere in the world's range, or after `from` within `spanDays`; never past its end. */
  time = (from = WORLD_START, spanDays = (WORLD_END - WORLD_START) / 86_400) =>
    this.int(Math.min(from, WORLD_END), Math.min(WORLD_END, from + Math.round(spanDays * 86_400)));
  sentence = () => this.f.lorem.sentence();
  /**
   * Sets an optional field the way a real service fills it: mostly a value, sometimes `null`,
   * sometimes absent.
   */
  optional<T extends object, K extends keyof T>(row: T, key: K, value: () => T[K], present = 0.7, nul = 0.15): void {
    const roll = this.f.number.float({ min: 0, max: 1 });
    if (roll < present) row[key] = value();
    else if (roll < present + nul) row[key] = null as T[K];
  }
}

/** A token secret: a recognisable prefix and 40 letters and digits drawn from `f` (seeded: the same for the same seed). */
export function tokenSecret(f: Faker): string {
  return `cst_${f.string.alphanumeric(40)}`;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** The bytes kept: the largest multiple of 62 a byte holds, so that every character is as likely. */
const UNBIASED_BELOW = 256 - (256 % ALPHANUMERIC.length);

/**
 * A token secret shaped as {@link tokenSecret}'s, from the platform's secure random source
 * (`crypto.getRandomValues`, in Node and browsers): no seed predicts it.
 */
export function randomTokenSecret(): string {
  let secret = 'cst_';
  while (secret.length < 44) {
    for (const byte of crypto.getRandomValues(new Uint8Array(48))) {
      if (byte < UNBIASED_BELOW && secret.length < 44) secret += ALPHANUMERIC[byte % ALPHANUMERIC.length];
    }
  }
  return secret;
}
