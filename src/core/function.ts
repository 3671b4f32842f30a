/**
 * How a `/core` function is made from its endpoint's line: `membersGet(core, memberId, options?)`
 * is `client.members.get(memberId, options?)` on `core`, typed from the line as the method is.
 * Two makers, so that a bundle of functions answering one value holds no paging.
 * @module
 */
import type { APIPromise } from './api-promise';
import { callOne } from './call';
import { engine, type Core } from './core';
import type { Endpoint } from './endpoint';
import { callList } from './list';

/**
 * The function of a method: the method's parameters after a core, and its result.
 * @example
 * const get: CoreFunction<CommunityServerClient['members']['get']> = membersGet; // (core, memberId, options?) => APIPromise<Member>
 */
export type CoreFunction<Method> = Method extends (...args: infer Args) => infer Result ? (core: Core, ...args: Args) => Result : never;

/**
 * What a function of a core carries, besides being called: its endpoint, under the clearly
 * internal, non-enumerable `~endpoint` (a string key both builds find), which
 * `queries(core, tree)` of `community-server-sdk/query` reads to know what the function requests.
 * Set by `Object.defineProperty`, which a bundle of the SDK holds anyway: the fewest bytes. @internal
 */
export interface CarriesEndpoint {
  readonly '~endpoint'?: Endpoint;
}

/** The function of a request that answers one value (JSON or text). */
export const one = /* @__NO_SIDE_EFFECTS__ */ <Method>(endpoint: Endpoint<Method>): CoreFunction<Method> => {
  // The function names itself: the stack of an error copied for a joined call starts at its caller.
  const call = (core: Core, ...args: unknown[]): APIPromise<unknown> => callOne(engine(core), endpoint, args, call);
  return Object.defineProperty(call, '~endpoint', { value: endpoint }) as unknown as CoreFunction<Method>;
};

/** The function of a list: it returns the same `PagePromise` as the client's method. */
export const list = /* @__NO_SIDE_EFFECTS__ */ <Method>(endpoint: Endpoint<Method>): CoreFunction<Method> => {
  const call = (core: Core, ...args: unknown[]) => callList(engine(core), endpoint, args, call);
  return Object.defineProperty(call, '~endpoint', { value: endpoint }) as unknown as CoreFunction<Method>;
};
