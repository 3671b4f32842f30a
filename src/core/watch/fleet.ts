/**
 * What a watch with `fleet` hands the fleet, and what it gets back: the contract between
 * `Watch` and `redisFleet` (`community-server-sdk/redis`), which polls each list once for every
 * process watching it. Types and one registered symbol: the fleet's entry needs nothing else
 * of the watch at run time. The fleet gets the means to poll (a {@link Poller} from a cursor, the
 * same loop a local watch runs) and to keep a position (a strategy at a cursor), never the
 * token: the list's key is a hash of the token's identity (the rate-limit store's), the list and
 * its parameters.
 * @module
 */
import type { Log } from '../log';
import type { WatchCursor } from '../types';
import type { Poller } from './poller';

/** The key of a fleet's `follow` method: registered, so both builds (ESM, CommonJS) find it. */
export const FOLLOW = Symbol.for('community-server-sdk/watch-fleet');

/**
 * Where the watches of one list share their polling, across processes: pass it as `fleet` to
 * `watch()`. `redisFleet(redis)` from `community-server-sdk/redis` makes one; its workings are
 * the SDK's own.
 * @example
 * import { redisFleet } from 'community-server-sdk/redis';
 * const fleet: WatchFleet = redisFleet(redis, { prefix: 'my-bot:watch:' });
 * for await (const log of client.logs.list().watch({ fleet, intervalMs: 5_000 })) console.log(log.text);
 */
export interface WatchFleet {
  /** @internal A watch asks the fleet to follow its list. */
  readonly [FOLLOW]: <T>(watch: FleetWatch<T>) => FleetFeed<T>;
}

/**
 * How a fleet shares a list's items: each to every process (`'every'`), or each to one (`'once'`).
 * @example
 * const delivery: FleetDelivery = process.env.ROLE === 'worker' ? 'once' : 'every';
 * const feed = client.joinRequests.list().watch({ fleet, delivery });
 */
export type FleetDelivery = 'every' | 'once';

/** A place in a list: whether an item is past it, and moving it past one. @internal */
export interface Position<T> {
  isNew(item: T): boolean;
  mark(item: T): void;
  /** `undefined` for a position started without a cursor: it stays unknown (marks change nothing). */
  readonly cursor: WatchCursor | undefined;
}

/** One watch, as its fleet sees it. @internal */
export interface FleetWatch<T> {
  /** The list's key in the fleet: a hash of the token's identity, the request and its parameters. */
  key(): Promise<string>;
  /** The request, e.g. `GET /api/v1/server/logs`, for messages. */
  readonly list: string;
  readonly delivery: FleetDelivery;
  /** The name that lets a restarted process resume ('every') or take back its unfinished item ('once'). */
  readonly consumer: string | undefined;
  readonly intervalMs: number;
  /** The caller's `cursor`: where the fleet starts when it holds no position for the list. */
  readonly cursor: WatchCursor | undefined;
  /** Aborted when the watch ends. */
  readonly signal: AbortSignal;
  readonly log: Log;
  /**
   * Polls the list from `cursor` (checked: `InvalidArgumentError`), or from a baseline on the
   * list's own first page when there is none; ends when `signal` aborts.
   */
  poller(cursor: WatchCursor | undefined, signal: AbortSignal): Poller<T>;
  /** A position at `cursor` (checked: `InvalidArgumentError`). */
  position(cursor: WatchCursor | undefined): Position<T>;
}

/** What a fleet gives a watch: the items for this process, and its position. @internal */
export interface FleetFeed<T> {
  readonly items: AsyncIterable<T, void, undefined>;
  readonly cursor: WatchCursor | undefined;
}
