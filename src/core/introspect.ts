/**
 * What a client tells the SDK's other entry points about itself: its endpoint table and what
 * names its service and token, never the token. `community-server-sdk/query` builds its query options from it.
 * Internal: reached through a registered symbol, like the tracer hook (`trace.ts`), so neither
 * entry bundles the other.
 * @module
 */
import type { ResourceTable } from './endpoint';

/** The key of a client's introspection method: registered, so both builds (ESM, CommonJS) find it. */
export const INTROSPECT = Symbol.for('community-server-sdk/introspect');

/** What a client offers under {@link INTROSPECT}. */
export interface ClientIntrospection {
  /**
   * The default scope of its query keys: the resolved base URL (no trailing slash, no query),
   * `#`, and a one-way digest of base URL and token (`tokenScope`), e.g. `https://api.example.com#3f9a0c1d5e7b2a48`.
   * A token selects its server, so two tokens on one base URL never share a scope.
   */
  readonly scope: string;
  /** The table the client binds its methods from. */
  readonly resources: ResourceTable;
}
