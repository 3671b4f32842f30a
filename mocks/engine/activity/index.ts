/**
 * `mock.activity`: a seeded stream of events that changes the `main` server's world the way a
 * community does. Each event is one row entering one list; the stream draws on its own seeded
 * faker (independent of the request-time stream), so a seed, a clock and a starting world give
 * one sequence of events whatever the batches it is taken in.
 * @module
 */
import type { MockState } from '../state';
import { runSteps, type Steps } from '../steps';
import { Draw, seededFaker } from '../world';
import { ACTIVITY_STREAM } from '../world/streams';
import { callClosed, callNoted, callOpened } from './cad';
import {
  joinRequested,
  LOA_LONGEST_DAYS,
  LOA_NOTICE_DAYS,
  loaEnded,
  loaRequested,
  loaReviewed,
  memberAdded,
  shiftEnded,
  shiftStarted,
} from './duty';
import type { FollowUp, Happening, Moment } from './moment';
import { departmentScopes, inSomeScope, serverScope, type ScopedHappening } from './scopes';
import { logCreated, memberJoined, responseReviewed, responseSubmitted, TEMP_BAN_LONGEST_DAYS } from './server';
import type { ActivityEvent, ActivityFailure } from '../../contract/activity';
import type { MockActivity } from '../../contract/in-process';

/**
 * How many days past its event's time the activity writes a time, at most: an LOA's end (its
 * notice, then its length) or a temporary ban's. The clock stops this far short of the latest
 * time a row holds, so an event is always one a table takes.
 */
export const ACTIVITY_REACH_DAYS = Math.max(LOA_NOTICE_DAYS + LOA_LONGEST_DAYS, TEMP_BAN_LONGEST_DAYS);

const inServer =
  (happening: ScopedHappening): Happening =>
  (moment) =>
    happening(moment, serverScope(moment.server));
const inADepartment =
  (happening: ScopedHappening): Happening =>
  (moment) =>
    inSomeScope(moment, departmentScopes(moment.server), happening);

/**
 * What may happen, and how often relative to the rest: moderation, duty and dispatch dominate,
 * as on a busy roleplay server; follow-ups (an audit event after a submission or a member
 * added) come on top, right after what they record.
 */
const HAPPENINGS: readonly { weight: number; value: Happening }[] = [
  { weight: 12, value: logCreated },
  { weight: 4, value: memberJoined },
  { weight: 6, value: responseSubmitted },
  { weight: 4, value: responseReviewed },
  { weight: 2, value: inServer(joinRequested) },
  { weight: 3, value: inADepartment(joinRequested) },
  { weight: 2, value: inADepartment(memberAdded) },
  { weight: 5, value: inServer(shiftStarted) },
  { weight: 7, value: inADepartment(shiftStarted) },
  { weight: 4, value: inServer(shiftEnded) },
  { weight: 6, value: inADepartment(shiftEnded) },
  { weight: 2, value: inServer(loaRequested) },
  { weight: 3, value: inADepartment(loaRequested) },
  { weight: 1, value: inServer(loaReviewed) },
  { weight: 2, value: inADepartment(loaReviewed) },
  { weight: 1, value: inServer(loaEnded) },
  { weight: 1, value: inADepartment(loaEnded) },
  { weight: 5, value: callOpened },
  { weight: 7, value: callNoted },
  { weight: 4, value: callClosed },
];

/** The activity of one mock, and the reset that `mock.reset()` calls. */
export interface ActivityControl {
  readonly activity: MockActivity;
  /** `activity.step(n)` in steps, `n` already checked. */
  stepping(n: number): Steps<ActivityEvent[]>;
  /** Stops the timer and restarts the stream from the seed. */
  reset(): void;
}

/**
 * The activity of the mock whose live state `current` reads (a reset replaces it), seeded by
 * `seed`. `mayGrow` throws when the world may take no more rows (a session past its server's
 * budget): before each event, so neither the timer nor a step grows it further.
 */
export function createActivity(current: () => MockState, seed: number, mayGrow: () => void = () => undefined): ActivityControl {
  let draw: Draw;
  let followUps: FollowUp[];
  let timer: ReturnType<typeof setInterval> | undefined;
  let failure: ActivityFailure | null = null;

  const restart = () => {
    // Its own stream: requests made meanwhile never change the events.
    draw = new Draw(seededFaker([seed, ACTIVITY_STREAM, 0]));
    followUps = [];
  };

  /** The next event: a follow-up owed by the last one, else a weighted choice of what can happen. */
  const next = (moment: Moment): ActivityEvent | undefined => {
    for (let followUp = followUps.shift(); followUp; followUp = followUps.shift()) {
      const event = followUp(moment);
      if (event) return event;
    }
    let options = HAPPENINGS;
    while (options.length) {
      const happening = draw.f.helpers.weightedArrayElement(options);
      const event = happening(moment);
      if (event) return event;
      options = options.filter((option) => option.value !== happening); // cannot happen in this world: try the rest
    }
    return undefined;
  };

  /** `n` events (checked), a step each: the control API runs them in slices, so 10,000 of them hold up no other request. */
  function* stepping(n: number): Steps<ActivityEvent[]> {
    const events: ActivityEvent[] = [];
    const state = current();
    for (let i = 0; i < n; i++) {
      mayGrow();
      const moment: Moment = {
        draw,
        server: state.store.main,
        now: Math.floor(state.now() / 1000),
        then: (followUp) => void followUps.push(followUp),
      };
      const event = next(moment);
      if (!event) break; // nothing can happen in this world (see MockActivity.step)
      events.push(event);
      yield;
    }
    return events;
  }

  // `n` and `options` meet their schemas: the calls of the control API's table checked them.
  const step = (n: number = 1): ActivityEvent[] => runSteps(stepping(n));

  const stop = () => {
    clearInterval(timer);
    timer = undefined;
  };

  /** One event on the timer. Nothing escapes a timer: an event that cannot be made stops it, and says why. */
  const tick = () => {
    try {
      step(1);
    } catch (error) {
      stop();
      const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
      failure = { name, message, at: Date.now() };
    }
  };

  restart();
  const activity: MockActivity = {
    step,
    start(options) {
      stop();
      failure = null;
      timer = setInterval(tick, options.intervalMs);
      // A mock left running must never keep a test runner or script alive; browsers have no unref.
      (timer as { unref?: () => void }).unref?.();
    },
    stop,
    get running() {
      return timer !== undefined;
    },
    get failure() {
      return failure;
    },
  };
  return {
    activity,
    stepping,
    reset() {
      stop();
      failure = null;
      restart();
    },
  };
}
