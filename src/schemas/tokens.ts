import * as z from 'zod/mini';
import { OpenObjectSchema, int64, maybe, str } from './common';

/**
 * The body of `POST /api/v1/tokens`. Stricter than the spec's bare types in two ways that only
 * reject requests the service could not honour: the name must contain a non-blank character,
 * and a lifetime must be a whole number of days, at least one. Unknown keys are refused so a
 * misspelt field fails before sending instead of being dropped.
 * @example
 * import { CreateTokenRequestSchema } from 'community-server-sdk/schemas';
 * const createTokenRequest = CreateTokenRequestSchema.parse(JSON.parse(text)); // throws a ZodError naming each mismatch
 */
export const CreateTokenRequestSchema = z.strictObject({
  name: str.check(z.regex(/\S/, 'name must not be empty or blank')),
  expiresInDays: maybe(int64.check(z.gte(1, 'expiresInDays must be at least 1'))),
});
/**
 * The body of `POST /api/v1/tokens`.
 * @example
 * const request: CreateTokenRequest = { name: 'ci bot', expiresInDays: 30 };
 * const created = await client.tokens.create(request); // created.token is the secret, shown once
 */
export type CreateTokenRequest = z.input<typeof CreateTokenRequestSchema>;

/**
 * A token as the service describes it (fields left open by the spec).
 * @example
 * import { TokenSchema } from 'community-server-sdk/schemas';
 * const token = TokenSchema.parse(JSON.parse(text)); // throws a ZodError naming each mismatch
 */
export const TokenSchema = OpenObjectSchema;
/**
 * A token as the service describes it.
 * @example
 * const token: Token = await client.tokens.current();
 */
export interface Token extends z.infer<typeof TokenSchema> {}

/**
 * The list of the server's tokens. The spec leaves its shape open, so both a bare array and an
 * object wrapping one are accepted.
 * @example
 * import { TokenListSchema } from 'community-server-sdk/schemas';
 * const tokenList = TokenListSchema.parse(JSON.parse(text)); // throws a ZodError naming each mismatch
 */
export const TokenListSchema = z.union([z.array(OpenObjectSchema), OpenObjectSchema]);
/**
 * The list of the server's tokens.
 * @example
 * const tokens: TokenList = await client.tokens.list();
 */
export type TokenList = z.infer<typeof TokenListSchema>;
