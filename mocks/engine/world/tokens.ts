/**
 * The five seeded tokens, across both servers.
 * @module
 */
import * as z from 'zod/mini';
import { MIN_TOKEN_LENGTH, TOKEN_CHARS } from '../../../src/core/token';
import { int64, str } from '../../../src/schemas/common';
import type { CollectionSpec } from '../rows/collection';
import { Draw, randomTokenSecret, seededFaker, tokenSecret, WORLD_START } from './draw';
import { TOKENS_STREAM } from './streams';
import type { WorldTable } from './table';

/**
 * What the mock grants a token: read the server's data, and manage its tokens (`tokens.create`,
 * `tokens.deactivate`, `admin.rateLimit`). The seeded `readOnly` token has only `read`.
 * @example
 * const token = mock.store.tokens.where('secret', mock.tokens.readOnly)[0]!;
 * token.permissions; // ['read']
 */
export type Permission = 'read' | 'manage_tokens';

/**
 * A token as the mock stores it. `secret` is what a client sends; the API shows it once, on
 * creation, and never again.
 * @example
 * const [main] = mock.store.tokens.where('secret', mock.tokens.main);
 * mock.store.tokens.update(main!.id, { expiresAt: 0 }); // from now on, mock.tokens.main gets 401
 */
export interface TokenRecord {
  /** The id `tokens.deactivate(tokenId)` takes. */
  id: string;
  /** The name given at creation. */
  name: string;
  /** The server the token is scoped to. */
  serverId: string;
  /** The bearer token itself. */
  secret: string;
  /** What the token may do. */
  permissions: Permission[];
  /** Unix seconds. */
  createdAt: number;
  /** Unix seconds, or `null` for a token that does not expire. */
  expiresAt: number | null;
  /** Unix seconds of deactivation, or `null` while active. */
  deactivatedAt: number | null;
  /** Unix seconds of last use, or `null` when never used. */
  lastUsedAt: number | null;
}

export const tokenSpec: CollectionSpec<TokenRecord> = {
  key: 'id',
  indexes: ['secret', 'serverId'],
  // A secret names one token: two tokens under one secret would authenticate as whichever came first.
  unique: ['secret'],
  orderBy: ['createdAt', 'id'],
  sort: 'asc',
};

/** The five tokens' secrets by role. */
export interface Secrets {
  main: string;
  noCad: string;
  readOnly: string;
  expired: string;
  revoked: string;
}

/** An active token of `serverId`, made in the world's first two years. */
const tokenOf = (d: Draw, name: string, serverId: string, permissions: Permission[], extra: Partial<TokenRecord> = {}): TokenRecord => ({
  id: d.uuid(),
  name,
  serverId,
  secret: tokenSecret(d.f),
  permissions,
  createdAt: d.time(WORLD_START, 700),
  expiresAt: null,
  deactivatedAt: null,
  lastUsedAt: null,
  ...extra,
});

/**
 * The longest secret a token may have: an `Authorization` header of it passes every common
 * server and proxy (nginx reads a header line into 8 KiB; Node takes 16 KiB of headers in all).
 */
const MAX_SECRET_LENGTH = 4096;

/**
 * A secret a client can present: what the SDK takes as a token, and no longer than a header
 * carries. The refusal never shows the value (`params.secret`). Anything else could never open the API, and the
 * journal, which redacts every secret of the store wherever it occurs, would redact it in every
 * path and body (a secret `e`), or fail on it (one of 300 000 characters).
 */
const secret = str.check(
  z.refine((value) => TOKEN_CHARS.test(value) && value.length >= MIN_TOKEN_LENGTH && value.length <= MAX_SECRET_LENGTH, {
    params: { secret: true },
    error: `a token is ${MIN_TOKEN_LENGTH} to ${MAX_SECRET_LENGTH} visible ASCII characters (not shown)`,
  }),
);

/** Tokens: a new one (`mock.store.tokens.create()`) belongs to the `main` server and may do everything. */
export const tokensTable: WorldTable<TokenRecord, { readonly serverId: string }> = {
  spec: tokenSpec,
  references: { serverId: 'server' },
  // The mock's own record: the API never serves a row as it is (`tokens.*` hide the secret).
  schema: z.object({
    id: str,
    name: str,
    serverId: str,
    secret,
    permissions: z.array(z.enum(['read', 'manage_tokens'])),
    createdAt: int64,
    expiresAt: z.nullable(int64),
    deactivatedAt: z.nullable(int64),
    lastUsedAt: z.nullable(int64),
  }) satisfies z.ZodMiniType<TokenRecord>,
  // The name is drawn last, so the seeded tokens (which are given theirs) draw as they always did.
  row: (d, { serverId }) => ({ ...tokenOf(d, '', serverId, ['read', 'manage_tokens']), name: `${d.f.word.adjective()}-bot` }),
};

/** The seeded tokens (stream `[seed, TOKENS_STREAM, 0]`): `main` and `noCad` own their servers; the rest are `main`'s. */
export function seedTokens(seed: number, mainId: string, noCadId: string): { tokens: TokenRecord[]; secrets: Secrets } {
  const d = new Draw(seededFaker([seed, TOKENS_STREAM, 0]));
  const token = (name: string, serverId: string, permissions: Permission[], extra: Partial<TokenRecord> = {}) =>
    tokenOf(d, name, serverId, permissions, extra);
  const all = [
    token('main', mainId, ['read', 'manage_tokens']),
    token('noCad', noCadId, ['read', 'manage_tokens']),
    token('readOnly', mainId, ['read']),
    token('expired', mainId, ['read', 'manage_tokens'], { expiresAt: WORLD_START + 400 * 86_400 }),
    token('revoked', mainId, ['read', 'manage_tokens'], { deactivatedAt: WORLD_START + 500 * 86_400 }),
  ] as const;
  const [main, noCad, readOnly, expired, revoked] = all;
  return {
    tokens: [...all],
    secrets: { main: main.secret, noCad: noCad.secret, readOnly: readOnly.secret, expired: expired.secret, revoked: revoked.secret },
  };
}

/**
 * `world` with fresh secrets from the platform's secure random source for its five tokens (the
 * same rows otherwise): what `createMockApi` serves a snapshot of a real server under, since the
 * seeded secrets are the same in every install.
 */
export function withRandomSecrets<World extends { tokens: TokenRecord[]; secrets: Secrets }>(world: World): World {
  const secrets = { ...world.secrets };
  const renewed = new Map<string, string>();
  for (const role of Object.keys(secrets) as (keyof Secrets)[]) {
    secrets[role] = randomTokenSecret();
    renewed.set(world.secrets[role], secrets[role]);
  }
  return { ...world, tokens: world.tokens.map((token) => ({ ...token, secret: renewed.get(token.secret) ?? token.secret })), secrets };
}
