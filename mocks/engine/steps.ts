/**
 * Work written as steps: a generator that yields between small units of work (a seeded row, a
 * slice of a copy) and returns its result. Run at once where the caller waits for it anyway
 * (`createMockApi`), or in slices that give the event loop back (a session opened over HTTP), so
 * one big world never keeps a server from answering everyone else.
 * @module
 */

/** Work that yields between its units and returns a `T`. */
export type Steps<T> = Generator<void, T, void>;

/** Runs `steps` to the end, at once. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** How long one slice of {@link runInSlices} runs before the event loop gets its turn: no request waits much longer. */
export const SLICE_MS = 8;

// Node's setImmediate runs after the I/O waiting (requests to answer); elsewhere a timer does.
const { setImmediate } = globalThis as { setImmediate?: (callback: () => void) => unknown };
/** The next turn of the event loop. */
const nextTurn = () => new Promise<void>((resolve) => (setImmediate ? setImmediate(resolve) : setTimeout(resolve, 0)));

/**
 * Runs `steps` in slices of about {@link SLICE_MS}, giving the event loop a turn between them, and
 * resolves to their result; once `signal` is aborted, runs no more of them and rejects with its reason.
 */
export async function runInSlices<T>(steps: Steps<T>, signal?: AbortSignal): Promise<T> {
  for (;;) {
    const sliceEnd = performance.now() + SLICE_MS;
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      if (performance.now() >= sliceEnd) break;
    }
    await nextTurn();
    if (signal?.aborted) throw signal.reason;
  }
}

/** How many items of an array one step copies: a row costs a few microseconds to copy. */
const COPIED_PER_STEP = 256;

/**
 * A deep copy of `value` (JSON-like data: objects, arrays, primitives), as `structuredClone`
 * makes it, a slice of each array per step. Objects and arrays held twice become two copies:
 * a world's rows hold none.
 */
export function* copying<T>(value: T): Steps<T> {
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (let start = 0; start < value.length; start += COPIED_PER_STEP) {
      const slice: unknown[] = value.slice(start, start + COPIED_PER_STEP);
      // Rows are copied whole; a list of groups of tables (a server's departments) is walked into.
      if (isGroupOfTables(slice[0])) for (const item of slice) copy.push(yield* copying(item));
      else copy.push(...structuredClone(slice));
      yield;
    }
    return copy as T;
  }
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) copy[key] = yield* copying(field);
  return copy as T;
}

/**
 * Whether `value` groups tables (a department's: its row and its lists) rather than being a row:
 * every field an object or a list. A row has fields of its own (an id at least); lists are all
 * of one kind, so the first item tells.
 */
const isGroupOfTables = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && Object.values(value).every((field) => typeof field === 'object' && field !== null);

/** Whether `value` is work written as steps (a generator), rather than a result. */
export const isSteps = (value: unknown): value is Steps<unknown> =>
  typeof value === 'object' &&
  value !== null &&
  Symbol.iterator in value &&
  typeof (value as Partial<Steps<unknown>>).next === 'function' &&
  typeof (value as Partial<Steps<unknown>>).throw === 'function';
