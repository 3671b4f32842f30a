/**
 * What a client tells the SDK's other entry points about itself: its endpoint table and its
 * base URL, never its token. `community-server-sdk/query` builds its query options from it.
 * Internal: reached through a registered symbol, like the tracer hook (`trace.ts`), so neither
 * entry bundles the other.
 * @module
 */
import type { ResourceTable } from './endpoint';

/** The key of a client's introspection method: registered, so both builds (ESM, CommonJS) find it. */
export const INTROSPECT = Symbol.for('community-server-sdk/introspect');

/** What a client offers under {@link INTROSPECT}. */
export interface ClientIntrospection {
  /** The resolved base URL, without a trailing slash (no token, no query). */
  readonly baseUrl: string;
  /** The table the client binds its methods from. */
  readonly resources: ResourceTable;
}
