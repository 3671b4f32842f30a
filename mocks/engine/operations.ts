/**
 * What each operation of the control API does to an engine, in the table's shape
 * (`contract/operations.ts`): every one but the sessions', which are the server's. Their
 * arguments arrive checked (by the call in-process, by the HTTP plane from the request); the
 * checks the schemas leave to the mock (an endpoint no request has, the clock's end) are made
 * here. An operation whose work is long for a big world (a reset, 10,000 events) answers its
 * steps (`steps.ts`): in-process they run at once, over HTTP in slices.
 * @module
 */
import type { ControlApi, ControlOperation } from '../contract/operations';
import type { MockEngine } from './engine';
import { isSteps, runInSlices, runSteps, type Steps } from './steps';
import { tableAt } from './store/tables';

/** What each operation of `Table` does: the call's own arguments, and its result, or the steps that make it. */
export type Runs<Table> = {
  readonly [Name in keyof Table]: Table[Name] extends ControlOperation<infer Args, infer Result>
    ? (...args: Args) => Result | Steps<Result> | Promise<Result>
    : Runs<Table[Name]>;
};

/** The operations an engine does itself: all but the sessions'. */
export type EngineApi = Omit<ControlApi, 'sessions'>;

const sameOrAbsent = <Value>(wanted: Value | undefined, value: Value) => wanted === undefined || wanted === value;

/** What each operation but the sessions' does to `engine`. */
export function engineRuns(engine: MockEngine): Runs<EngineApi> {
  const { activity } = engine.activity;
  return {
    reset: () => engine.resetting(),
    requests: ({ endpoint, status, token } = {}) =>
      engine.requests.filter(
        (row) => sameOrAbsent(endpoint, row.endpoint) && sameOrAbsent(status, row.status) && sameOrAbsent(token, row.token),
      ),
    clearRequests: () => engine.state.journal.clear(),
    store: { create: (table, partial = {}) => tableAt(engine.state.store, table).create(partial) },
    activity: {
      step: (n = 1) => engine.activity.stepping(n),
      start: (options) => activity.start(options),
      stop: () => activity.stop(),
      status: () => ({ running: activity.running, failure: activity.failure }),
    },
    faults: { add: (rule) => engine.faults.add(rule), clear: () => engine.faults.clear() },
    clock: { advance: (ms) => engine.time.clock.advance(ms) },
    setHealth: (health) => engine.setHealth(health),
    setRateLimit: (rateLimit) => engine.state.admission.setRateLimit(rateLimit ?? undefined),
  };
}

/** The result of a run, at once: its steps run to the end. */
export const atOnce = <Result>(result: Result | Steps<Result>): Result => (isSteps(result) ? runSteps(result) : result);

/** The result of a run, its steps in slices so the event loop answers others meanwhile. */
export const inSlices = <Result>(result: Result | Steps<Result> | Promise<Result>): Promise<Result> =>
  isSteps(result) ? runInSlices(result) : Promise.resolve(result);
