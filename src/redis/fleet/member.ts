/**
 * One watch in a fleet: the lease (who polls), and the delivery of the list's items to this
 * process. Every member ticks every half interval: the holder renews its lease (two intervals
 * long, a second at least), the others try to take it, so a poller that dies is replaced within
 * about two intervals, from the cursor it last published. The holder runs the watch's own
 * polling loop (`Poller`) and publishes each poll's items to the list's stream, with the cursor
 * after them, in one fenced script; every member, the holder too, reads the stream: `'every'`
 * by its own last id, `'once'` through the consumer group.
 *
 * When is an item delivered? When `next()` hands it over. Its place is saved (`'every'` with a
 * `consumer`: the position; `'once'`: the acknowledgement) when the process asks for the next
 * one, or ends the watch; an item handed to a process that dies before then is handed again:
 * on the restart of its `consumer` (`'every'`), or to another process once the dead one stops
 * marking itself alive (`'once'`).
 *
 * While Redis fails: an `'every'` member polls the list itself, from its own position, and
 * rejoins once Redis answers (one more poll of its own, then the stream from its end at that
 * moment, passing over what it already yielded): nothing missed; an item found at the moment of
 * rejoining may come twice. A `'once'` member waits. One that fell behind the stream's trim
 * (or whose stream Redis lost) does the same catching up, with a warning.
 * @module
 */
import { InvalidArgumentError } from '../../core/errors';
import type { Log } from '../../core/log';
import { describeThrown } from '../../core/describe';
import { abortable, sleep, withTimeout } from '../../core/sleep';
import type { WatchCursor } from '../../core/types';
import type { FleetFeed, FleetWatch, Position } from '../../core/watch/fleet';
import type { Poller } from '../../core/watch/poller';
import type { BlockingConnection, Run, Script } from '../connection';

/** What the watches of one `redisFleet()` share. */
export interface Fleet {
  readonly run: Run;
  readonly script: Script;
  /** Makes a connection for a member's blocking reads. */
  blocking(): BlockingConnection;
  readonly prefix: string;
  /** Entries a list's stream keeps (`MAXLEN ~`). */
  readonly maxLength: number;
  /** One warning per fleet when Redis fails: a fleet of many watches warns once. */
  warned: boolean;
}

/** A step slower than this counts as Redis failing. */
const STEP_TIMEOUT_MS = 2_000;
/** Items per publish (one script each), and how far back a `'once'` member looks for a cursor. */
const CHUNK = 100;
/** Entries an `'every'` member reads at once. */
const READ_COUNT = 100;
/**
 * The shortest lease: two intervals, but no less, so that a poller is not replaced over an event
 * loop held up for a moment (a poll taking the lease over costs a request).
 */
const MIN_LEASE_MS = 1_000;
/** The shortest a member waits between ticks, or blocks on a read: a tiny `intervalMs` must not hammer Redis. */
const MIN_WAIT_MS = 100;
/** The longest a blocking read waits before the member looks again. */
const MAX_BLOCK_MS = 30_000;

/** Where an `'every'` member reads from: after the entry `id`, the `n`-th published. */
interface At {
  id: string;
  n: number;
}
/** A stream entry as the script answers it: id, n, the item's JSON, and the cursor after it on a batch's last. */
type Entry = [id: string, n: string, item: string | null, cursor: string | null];
/** What the script's `join` answers. */
type Joined = [lastId: string, n: string, cursor: string | null, saved: string | null, first: Entry | null];
/** What a step answers when another owner holds this member's name: `holder` changes with each renewal. */
type Taken = ['taken', holder: string];

/** Follows `watch`'s list in `fleet`: the items for this process, and its position. */
export function follow<T>(fleet: Fleet, watch: FleetWatch<T>): FleetFeed<T> {
  const member = new Member(fleet, watch);
  return {
    items: member.items(),
    get cursor() {
      return member.cursor;
    },
  };
}

class Member<T> {
  readonly #fleet: Fleet;
  readonly #watch: FleetWatch<T>;
  readonly #log: Log;
  /** The list's six keys, named by a hash (`FleetWatch.key`). */
  readonly #keys: Promise<string[]>;
  /** This process's name in the list's group (`'once'`) or for its saved position (`'every'`, `''` for none). */
  readonly #consumer: string;
  /**
   * The token under which this member holds its `consumer` name (`''` without one), and the one
   * it passes while it holds it (`''` until it has claimed it): one live process per name.
   */
  readonly #token: string;
  #owner = '';
  readonly #blocking: BlockingConnection;
  /** Aborted when the watch ends, or (with the error) when its polling failed for good. */
  readonly #stop = new AbortController();
  /** Where the member starts: taken at once, as a local watch takes its starting point. */
  readonly #joined: Promise<At | undefined>;
  /**
   * How long a member counts as alive after it last said so: past it, a `'once'` member's
   * unfinished item goes to another, and its name (either delivery) to a process that asks for it.
   */
  readonly #aliveMs: string;
  /** Between two ticks: half an interval. */
  readonly #tickMs: number;
  /** What this process has yielded (`'every'`), or a place before which every item was handed out (`'once'`). */
  #position: Position<T>;
  /** Where an `'every'` member is in the stream, and the `'once'` item handed and not yet acknowledged. */
  #at: At | undefined;
  #handed = '';
  /** The lease this member holds (`''`: none), and the polling it runs meanwhile. */
  #lease = '';
  #polling: AbortController | undefined;
  /** The tick in flight: leaving waits for it, so that it cannot take the lease back after. */
  #tick: Promise<unknown> | undefined;
  /** Whether Redis answered the last step; those waiting for it to answer again. */
  #up = true;
  #waiting: (() => void)[] = [];
  #closed: Promise<void> | undefined;

  constructor(fleet: Fleet, watch: FleetWatch<T>) {
    this.#fleet = fleet;
    this.#watch = watch;
    this.#log = watch.log;
    this.#consumer = watch.consumer ?? (watch.delivery === 'once' ? crypto.randomUUID() : '');
    this.#token = watch.consumer === undefined ? '' : crypto.randomUUID();
    this.#aliveMs = String(Math.max(3 * watch.intervalMs, 2_000));
    this.#tickMs = Math.max(watch.intervalMs / 2, MIN_WAIT_MS);
    this.#blocking = fleet.blocking();
    this.#position = watch.position(watch.cursor);
    const names = ['lease', 'state', 'stream', 'alive', 'positions', 'names'];
    this.#keys = watch.key().then((id) => names.map((name) => `${fleet.prefix}{${id}}:${name}`));
    this.#stop.signal.addEventListener('abort', () => void this.#close(), { once: true });
    if (watch.signal.aborted) this.#stop.abort(watch.signal.reason);
    else watch.signal.addEventListener('abort', () => this.#stop.abort(watch.signal.reason), { once: true });
    this.#joined = this.#join();
    this.#joined.catch(() => undefined); // the items' to report
    void this.#ticks();
  }

  get cursor(): WatchCursor | undefined {
    return this.#position.cursor;
  }

  async *items(): AsyncGenerator<T, void, undefined> {
    try {
      yield* this.#watch.delivery === 'once' ? this.#once() : this.#every();
    } finally {
      await this.#close();
    }
  }

  // The lease.

  /** Every half interval: renew the lease, or take it when nobody holds it; poll while holding it. */
  async #ticks(): Promise<void> {
    const leaseMs = String(Math.max(2 * this.#watch.intervalMs, MIN_LEASE_MS));
    const signal = this.#stop.signal;
    while (!signal.aborted) {
      try {
        this.#tick = this.#step('tick', [this.#lease, crypto.randomUUID(), leaseMs, this.#polling ? '0' : '1']);
        const [holder, cursor] = (await this.#tick) as [string, string | null | undefined];
        if (signal.aborted) break; // leaving: the lease it may hold now is given up there
        if (holder === '') this.#stopPolling();
        else if (holder !== this.#lease || !this.#polling) this.#startPolling(holder, cursor ?? null);
        this.#lease = holder;
      } catch {
        this.#stopPolling(); // what it would find could not be published; the lease is renewed if still held
      }
      await sleep(this.#tickMs, signal).catch(() => undefined);
    }
  }

  #startPolling(lease: string, stored: string | null): void {
    this.#stopPolling();
    const polling = new AbortController();
    this.#polling = polling;
    void this.#poll(lease, stored, polling).finally(() => {
      polling.abort();
      if (this.#polling === polling) this.#polling = undefined;
    });
  }

  #stopPolling(): void {
    this.#polling?.abort();
    this.#polling = undefined;
  }

  /**
   * Polls the list while holding `lease`, from the cursor Redis holds (`stored`), or, where it
   * holds none (a new list, or a Redis that lost it), from this process's own position, the
   * watch's `cursor`, or a baseline. Each poll's items are published with the cursor after them,
   * the first poll's even when empty (Redis then knows where polling stands).
   */
  async #poll(lease: string, stored: string | null, polling: AbortController): Promise<void> {
    const signal = AbortSignal.any([polling.signal, this.#stop.signal]);
    const poller = this.#pollerAt(
      [stored === null ? undefined : this.#parse(stored, 'cursor'), this.#position.cursor, this.#watch.cursor],
      signal,
    );
    let first = true;
    try {
      for await (const batch of poller.batches()) {
        for (let i = 0; i < batch.length || (first && i === 0); i += CHUNK) {
          const chunk = batch.slice(i, i + CHUNK);
          for (const item of chunk) poller.mark(item);
          const args = [lease, String(this.#fleet.maxLength), JSON.stringify(poller.cursor), ...chunk.map((item) => JSON.stringify(item))];
          const published = await this.#step('publish', args).catch(() => undefined);
          // Redis failed (the ticks take it from there), or the lease went to another (paused past it): stop here.
          if (published === undefined || Number(published) < 0) return;
        }
        first = false;
      }
    } catch (error) {
      if (signal.aborted) return;
      // A 401, 403 or 404 (or a page no watch can read): the watch ends with it, and hands the
      // lease on; each process then meets it when its turn to poll comes.
      this.#stop.abort(error);
    }
  }

  /**
   * A poller from the first of `cursors` given and usable (one that is not this list's, a Redis
   * value gone bad, is warned of and passed over); from a baseline when there is none.
   */
  #pollerAt(cursors: unknown[], signal: AbortSignal): Poller<T> {
    for (const cursor of cursors) {
      if (cursor === undefined) continue;
      try {
        return this.#watch.poller(cursor as WatchCursor, signal);
      } catch (error) {
        this.#log.warn?.(`watch of ${this.#watch.list}: the fleet holds an unusable cursor (${describeThrown(error)}); ignoring it`);
      }
    }
    return this.#watch.poller(undefined, signal);
  }

  // Delivery: 'every'.

  async *#every(): AsyncGenerator<T, void, undefined> {
    let from = await this.#guard(this.#joined);
    let filter: Position<T> | undefined;
    for (;;) {
      if (from) yield* this.#read(from, filter);
      if (!this.#up) yield* this.#alone();
      ({ from, filter } = yield* this.#rejoin());
    }
  }

  /**
   * Reads the stream after `from`, yielding each item (but those `filter` has seen: what this
   * process yielded on its own just before), until Redis fails or the stream no longer holds
   * what follows `from` (trimmed past it, or lost with Redis's data: warned of).
   */
  async *#read(from: At, filter: Position<T> | undefined): AsyncGenerator<T, void, undefined> {
    this.#at = { ...from };
    const at = this.#at;
    for (;;) {
      let answer: unknown;
      try {
        answer = await this.#guard(this.#step('every', [at.id, String(READ_COUNT), '']));
      } catch (error) {
        return this.#rethrowIfOver(error, undefined);
      }
      const [published, ...entries] = answer as [string, ...Entry[]];
      if (Number(published) < at.n) return this.#behind("the fleet's stream was lost (a Redis restarted without its data)");
      if (entries.length === 0) {
        try {
          await this.#guard(this.#wait(at.id));
        } catch (error) {
          return this.#rethrowIfOver(error, undefined);
        }
        continue;
      }
      for (const [id, n, json, cursor] of entries) {
        // Each item is the one after the last; a poller's starting point (no item) repeats the count.
        const missed = Number(n) - (json === null ? at.n : at.n + 1);
        if (missed > 0) return this.#behind(`${missed} items were trimmed from the fleet's stream before this process read them`);
        if (missed < 0) return this.#behind("the fleet's stream was lost (a Redis restarted without its data)");
        Object.assign(at, { id, n: Number(n) });
        if (json === null) {
          this.#position = this.#positionAt(cursor);
          continue;
        }
        const item = this.#parse(json, 'item') as T | undefined;
        if (item === undefined) continue;
        const seen = filter !== undefined && !filter.isNew(item);
        if (!seen) filter = undefined;
        this.#advance(item, cursor);
        if (seen) continue;
        yield item;
        if (this.#consumer === '') continue;
        try {
          await this.#guard(this.#step('every', [at.id, '0', this.#saved()]));
        } catch (error) {
          return this.#rethrowIfOver(error, undefined);
        }
      }
    }
  }

  /** Polls the list itself, from this process's position, until Redis answers again. */
  async *#alone(): AsyncGenerator<T, void, undefined> {
    const polling = new AbortController();
    const poller = this.#pollerAt([this.#position.cursor, this.#watch.cursor], AbortSignal.any([polling.signal, this.#stop.signal]));
    this.#position = positionOf(poller);
    try {
      for await (const batch of poller.batches()) {
        for (const item of batch) {
          poller.mark(item);
          yield item;
        }
        if (this.#up) break;
      }
    } finally {
      polling.abort();
    }
  }

  /**
   * Back in the fleet: the stream's end now, then one poll of this process's own from its
   * position (what was published before that end, and it has not yielded), then the stream
   * from that end, passing over what that poll found.
   */
  async *#rejoin(): AsyncGenerator<T, { from?: At; filter?: Position<T> }, undefined> {
    let joined: Joined;
    try {
      joined = await this.#guard(this.#claim());
    } catch (error) {
      return this.#rethrowIfOver(error, {});
    }
    const from = { id: joined[0], n: Number(joined[1]) };
    const start = this.#position.cursor;
    if (start === undefined) {
      // Joined before the fleet had a starting point, and never read it: nothing to catch up from.
      this.#log.warn?.(`watch of ${this.#watch.list}: no position to catch up from; going on from the fleet's stream as it is now`);
      this.#position = this.#positionAt(joined[2] ?? undefined);
      return { from };
    }
    const polling = new AbortController();
    const poller = this.#watch.poller(start, AbortSignal.any([polling.signal, this.#stop.signal]));
    this.#position = positionOf(poller);
    try {
      const { value: found } = await this.#guard(poller.batches().next());
      for (const item of found) {
        poller.mark(item);
        yield item;
      }
    } finally {
      polling.abort();
    }
    return { from, filter: this.#watch.position(poller.cursor) };
  }

  // Delivery: 'once'.

  async *#once(): AsyncGenerator<T, void, undefined> {
    await this.#guard(this.#joined);
    for (;;) {
      let answer: [string, Entry | null, string | null];
      try {
        answer = (await this.#guard(this.#step('once', [this.#handed, String(CHUNK)]))) as typeof answer;
      } catch (error) {
        this.#rethrowIfOver(error, undefined);
        await this.#guard(this.#back());
        continue;
      }
      this.#handed = '';
      const [lastId, handed, caughtUp] = answer;
      if (!handed) {
        // Everything published has been handed out: a place a poller may start from losing nothing.
        if (caughtUp) this.#position = this.#positionAt(caughtUp);
        try {
          await this.#guard(this.#wait(lastId));
        } catch (error) {
          this.#rethrowIfOver(error, undefined);
          await sleep(this.#tickMs, this.#stop.signal); // its connection failed: not again at once
        }
        continue;
      }
      const [id, , json, cursor] = handed;
      this.#handed = id; // acknowledged when the next one is asked for, or the watch ends
      if (cursor) this.#position = this.#positionAt(cursor);
      const item = json === null ? undefined : (this.#parse(json, 'item') as T | undefined);
      if (item !== undefined) yield item;
    }
  }

  // Joining and leaving.

  /**
   * Where this member starts. `'every'`: a named consumer's saved position, else the stream's
   * end now (items from now on), once the fleet has a position; `undefined` when Redis fails
   * (the member then polls on its own). `'once'`: joins the group (made at the stream's end),
   * waiting for Redis if need be.
   */
  async #join(): Promise<At | undefined> {
    const { delivery } = this.#watch;
    for (let attempt = 0; ; attempt++) {
      try {
        const [id, n, cursor, saved, first] = await this.#claim();
        const resumed = saved ? this.#parseSaved(saved) : undefined;
        if (resumed) {
          this.#position = this.#positionAt(resumed.cursor);
          return { id: resumed.id, n: resumed.n };
        }
        // A list new to the fleet, its starting point taken since this member started: from there.
        if (cursor && attempt > 0 && first?.[1] === '0' && first[2] === null) {
          this.#position = this.#positionAt(first[3]);
          return { id: first[0], n: 0 };
        }
        if (cursor) this.#position = this.#positionAt(cursor);
        if (cursor || delivery === 'once') return { id, n: Number(n) };
      } catch (error) {
        if (delivery === 'every') return this.#rethrowIfOver(error, undefined);
        await this.#guard(this.#back());
        continue;
      }
      // No poller has taken its starting point yet (a new list): join once it has, from it, so
      // that this member knows its position from the start, however long it waits to ask for items.
      await sleep(this.#tickMs, this.#stop.signal);
    }
  }

  /**
   * The `join` step, under this member's name if it has one. A name another process holds is
   * waited for while that holder's liveness lapses (a process that died holding it; one that ended
   * its watch gave it up), and refused as soon as the holder renews it: a live process holds it.
   */
  async #claim(): Promise<Joined> {
    let holder: string | undefined;
    for (;;) {
      const answer = (await this.#step('join', [], this.#token)) as Joined | Taken;
      if (answer[0] !== 'taken') {
        this.#owner = this.#token;
        return answer as Joined;
      }
      if (holder !== undefined && answer[1] !== holder) {
        throw this.#end(`is in use by another live process; give each process a name of its own`);
      }
      holder = answer[1];
      await sleep(this.#tickMs, this.#stop.signal);
    }
  }

  /** Ends the member with an `InvalidArgumentError` about its name (why it cannot go on under it). */
  #end(why: string): InvalidArgumentError {
    const error = new InvalidArgumentError(`watch of ${this.#watch.list}: consumer ${JSON.stringify(this.#consumer)} ${why}`);
    this.#stop.abort(error);
    return error;
  }

  /** Ends the member, once: stops polling, gives the lease up, acknowledges or saves what was handed, closes its reads. */
  #close(): Promise<void> {
    if (this.#closed) return this.#closed;
    this.#closed = this.#leave();
    this.#stop.abort(); // (a no-op when that is what closes it)
    return this.#closed;
  }

  async #leave(): Promise<void> {
    this.#stopPolling();
    this.#blocking.close();
    await this.#tick?.catch(() => undefined);
    const saved = this.#consumer && this.#watch.delivery === 'every' && this.#at ? this.#saved() : '';
    // Under its token even if it never claimed its name: the script then leaves the name, and
    // what is done under it, to whoever holds it.
    const args = this.#args('leave', [this.#lease, this.#handed, saved], this.#token);
    await withTimeout(async () => this.#fleet.run(this.#fleet.script, await this.#keys, args), STEP_TIMEOUT_MS).catch(() => undefined);
  }

  // Redis.

  /** A step's arguments: what every step starts with (see script.ts), then its own. */
  #args(op: string, args: string[], owner: string): string[] {
    return [op, this.#watch.delivery, this.#consumer, owner, this.#aliveMs, ...args];
  }

  /**
   * One step of the script, under the name this member holds (or `owner`); a failure (or no
   * answer within the timeout, or one not of the script) marks Redis as failing. A step that
   * finds its name held by another (this process did not renew it in time) ends the member.
   */
  async #step(op: string, args: string[], owner = this.#owner): Promise<unknown> {
    try {
      const answer = await withTimeout(
        async () => this.#fleet.run(this.#fleet.script, await this.#keys, this.#args(op, args, owner)),
        STEP_TIMEOUT_MS,
      );
      // The steps that answer a list: anything else is not the script speaking (a proxy, a double).
      if (op !== 'publish' && !Array.isArray(answer)) throw new Error(`Redis answered the fleet's ${op} with ${typeof answer}, not a list`);
      this.#answered();
      if (op !== 'join' && Array.isArray(answer) && answer[0] === 'taken') {
        throw this.#end(
          `was taken by another process: this one did not say it was alive for ${this.#aliveMs} ms (paused, or cut off from Redis)`,
        );
      }
      return answer;
    } catch (error) {
      this.#failed(error);
      throw error;
    }
  }

  /** Waits, on the member's own connection, until the stream has an entry after `id` (or an interval passes). */
  async #wait(id: string): Promise<void> {
    const block = Math.min(Math.max(this.#watch.intervalMs, MIN_WAIT_MS), MAX_BLOCK_MS);
    const [, , stream] = await this.#keys;
    try {
      await withTimeout(
        () => this.#blocking.send(['XREAD', 'BLOCK', String(block), 'COUNT', '1', 'STREAMS', stream!, id]),
        block + STEP_TIMEOUT_MS,
      );
    } catch (error) {
      this.#blocking.close(); // the next read makes a new connection
      this.#failed(error);
      throw error;
    }
  }

  #failed(error: unknown): void {
    if (this.#stop.signal.aborted) return;
    this.#up = false;
    if (this.#fleet.warned) return;
    this.#fleet.warned = true;
    const meanwhile = this.#watch.delivery === 'every' ? 'each process polls the list on its own' : "'once' deliveries wait";
    this.#log.warn?.(
      `watch of ${this.#watch.list}: the fleet's Redis failed (${describeThrown(error)}); ${meanwhile} until it answers again`,
    );
  }

  #answered(): void {
    if (this.#up) return;
    this.#up = true;
    this.#log.info?.(`watch of ${this.#watch.list}: the fleet's Redis answers again; rejoining the fleet`);
    for (const resume of this.#waiting.splice(0)) resume();
  }

  /** Resolves once Redis answers again (the ticks keep asking). */
  #back(): Promise<void> {
    return this.#up ? Promise.resolve() : new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** `promise`, or the reason the member stopped (the watch ended, or its polling failed for good). */
  #guard<R>(promise: Promise<R>): Promise<R> {
    return abortable(promise, this.#stop.signal);
  }

  /** `fallback` after a failure of Redis; the reason itself once the member has stopped. */
  #rethrowIfOver<R>(error: unknown, fallback: R): R {
    if (this.#stop.signal.aborted) throw this.#stop.signal.reason === undefined ? error : this.#stop.signal.reason;
    return fallback;
  }

  /** Warns that this member cannot go on from the stream where it is, and why; it then catches up from its own position. */
  #behind(why: string): void {
    this.#log.warn?.(`watch of ${this.#watch.list}: ${why}; reading the list from this process's own position to catch up`);
  }

  // Values read from Redis: checked, a bad one warned of and passed over.

  #advance(item: T, cursor: string | null): void {
    if (cursor) this.#position = this.#positionAt(cursor);
    else this.#position.mark(item);
  }

  /** The position at a stored cursor (JSON, or parsed); an unusable one is warned of, and leaves the position unknown. */
  #positionAt(stored: unknown): Position<T> {
    const cursor = typeof stored === 'string' ? this.#parse(stored, 'cursor') : stored;
    try {
      return this.#watch.position(cursor as WatchCursor | undefined);
    } catch (error) {
      this.#log.warn?.(`watch of ${this.#watch.list}: the fleet holds an unusable cursor (${describeThrown(error)}); ignoring it`);
      return this.#watch.position(undefined);
    }
  }

  #parse(json: string, what: 'item' | 'cursor'): unknown {
    try {
      return JSON.parse(json) as unknown;
    } catch (error) {
      this.#log.warn?.(
        `watch of ${this.#watch.list}: passing over ${what === 'item' ? 'an item' : 'a cursor'} in the fleet that is not JSON (${describeThrown(error)})`,
      );
      return undefined;
    }
  }

  #saved(): string {
    return JSON.stringify({ ...this.#at, cursor: this.#position.cursor ?? null });
  }

  /** A named `'every'` consumer's saved place: `{ id, n, cursor }` (the cursor `null` while its position was unknown). */
  #parseSaved(saved: string): { id: string; n: number; cursor: unknown } | undefined {
    const { id, n, cursor } = (this.#parse(saved, 'cursor') ?? {}) as { id?: unknown; n?: unknown; cursor?: unknown };
    if (typeof id === 'string' && Number.isSafeInteger(n)) return { id, n: n as number, cursor: cursor ?? undefined };
    this.#log.warn?.(
      `watch of ${this.#watch.list}: the saved place of consumer ${JSON.stringify(this.#consumer)} is unusable; starting from now`,
    );
    return undefined;
  }
}

/** A poller's place as a position: what it marked. */
function positionOf<T>(poller: Poller<T>): Position<T> {
  return {
    isNew: () => true,
    mark: (item) => poller.mark(item),
    get cursor() {
      return poller.cursor;
    },
  };
}
