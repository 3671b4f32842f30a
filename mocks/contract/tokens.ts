/**
 * The mock's five API tokens, as `mock.tokens`, a session's `tokens` and the bin name them.
 * @module
 */

/**
 * The five tokens of the seeded world (`mock.tokens`): same seed, same strings.
 * @example
 * const client = new CommunityServerClient({ token: mock.tokens.readOnly, baseUrl: 'https://community.test', fetch: mock.fetch });
 * await client.tokens.create({ name: 'x' }); // PermissionDeniedError: the read-only token manages nothing
 */
export interface MockTokens {
  /** Server `main`, every permission. */
  readonly main: string;
  /** Server `noCad` (no CAD: CAD requests answer 404), every permission. */
  readonly noCad: string;
  /** Server `main`, without token management: 403 on `tokens.create`, `tokens.deactivate`, `admin.rateLimit`. */
  readonly readOnly: string;
  /** Past its expiry: 401. */
  readonly expired: string;
  /** Deactivated: 401. */
  readonly revoked: string;
}
