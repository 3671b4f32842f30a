import * as z from 'zod/mini';
import { OpenObjectSchema, bool, int64, looseObject, maybe, str } from './common';

/**
 * The body of `POST /api/v1/tokens`. Stricter than the spec's bare types in two ways that only
 * reject requests the service could not honour: the name must contain a non-blank character,
 * and a lifetime must be a whole number of days, from 1 to 36500. Unknown keys are refused so a
 * misspelt field fails before sending instead of being dropped.
 */
export const CreateTokenRequestSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    name: str.check(z.regex(/\S/, 'name must not be empty or blank')),
    // At most a hundred years: beyond, `createdAt + days × 86400` leaves the dates clients read
    // (at 3.65 million days `toDate` sees milliseconds, and the expiry reads as 1980).
    expiresInDays: maybe(int64.check(z.gte(1, 'expiresInDays must be at least 1'), z.lte(36_500, 'expiresInDays must be at most 36500'))),
  }))();
/**
 * The body of `POST /api/v1/tokens`.
 * @example
 * const request: CreateTokenRequest = { name: 'ci bot', expiresInDays: 30 };
 * const created = await client.tokens.create(request); // created.token is the secret, shown once
 */
export type CreateTokenRequest = z.input<typeof CreateTokenRequestSchema>;

/**
 * A token as the service describes it. The spec leaves its fields open, so each field the
 * service (and the mock) is known to send is typed but optional, and unknown fields are kept.
 * `token`, the secret itself, comes only in the answer to `tokens.create()`.
 */
export const TokenSchema = /* @__PURE__ */ (() =>
  looseObject({
    /** The id `tokens.deactivate(tokenId)` takes. */
    id: z.optional(str),
    /** The name given at creation. */
    name: z.optional(str),
    /** The server the token is scoped to. */
    serverId: z.optional(str),
    /** What the token may do, e.g. `manage_tokens`. */
    permissions: z.optional(z.array(str)),
    /** Unix seconds. */
    createdAt: z.optional(int64),
    /** Unix seconds, or `null` for a token that does not expire. */
    expiresAt: maybe(int64),
    /** Unix seconds of deactivation, or `null` while active. */
    deactivatedAt: maybe(int64),
    /** Unix seconds of the last authenticated request, or `null`. */
    lastUsedAt: maybe(int64),
    /** Whether the token is usable (not deactivated). */
    active: z.optional(bool),
    /** The secret, sent once: only in the answer to `tokens.create()`. */
    token: z.optional(str),
  }))();
/**
 * A token as the service describes it.
 * @example
 * const token: Token = await client.tokens.current();
 * console.log(token.name, token.permissions, token.expiresAt);
 */
export interface Token extends z.infer<typeof TokenSchema> {}

/**
 * The list of the server's tokens: a bare array of {@link TokenSchema} (what the mock sends).
 * The spec leaves its shape open, so an object wrapping a list is accepted too.
 */
export const TokenListSchema = /* @__PURE__ */ (() => z.union([z.array(TokenSchema), OpenObjectSchema]))();
/**
 * The list of the server's tokens.
 * @example
 * const tokens = await client.tokens.list();
 * if (Array.isArray(tokens)) for (const token of tokens) console.log(token.name, token.active);
 */
export type TokenList = z.infer<typeof TokenListSchema>;
