/**
 * Building blocks shared by every resource schema. Spec Part 2 conventions map to these:
 * "string" → {@link str}, "int32" → {@link int32}, "int64" → {@link int64}, "any" → {@link any},
 * "X or null" on an optional field → {@link maybe}.
 *
 * Written with `zod/mini` so the client stays small; the schemas still offer `.parse` and
 * `.safeParse`, and interoperate with classic `zod`. Every schema's construction is marked pure
 * (`@__PURE__`; the helpers `@__NO_SIDE_EFFECTS__`), so a bundle keeps only the schemas it uses:
 * `community-server-sdk/core` with three functions holds their three schemas, not the module's others.
 * @module
 */
import * as z from 'zod/mini';
import { $ZodObjectJIT, $constructor } from 'zod/v4/core';

/**
 * `z.looseObject`, with zod's generated (JIT) object parser instead of the interpreted one
 * zod/mini builds by default: 3.5× faster on a page of 100 members, for 1 KB. Everything else is
 * zod/mini's (`.shape`, `z.extend`, `instanceof z.ZodMiniObject`). Where code generation is
 * forbidden (a strict CSP), zod interprets as usual.
 */
type Init = { init(inst: object, def: object): void };
const JitLooseObject = /*@__PURE__*/ $constructor('ZodMiniObject', (inst: z.ZodMiniObject, def: z.core.$ZodObjectDef) => {
  ($ZodObjectJIT as Init).init(inst, def);
  (z.ZodMiniType as unknown as Init).init(inst, def);
  Object.defineProperty(inst, 'shape', { get: () => def.shape, enumerable: false });
});

/** An object that must have `shape`'s fields and keeps any others it carries. */
export const looseObject = /* @__NO_SIDE_EFFECTS__ */ <const Shape extends z.core.$ZodLooseShape>(
  shape: Shape,
): z.ZodMiniObject<Shape, z.core.$loose> =>
  new JitLooseObject({ type: 'object', shape, catchall: z.unknown() }) as unknown as z.ZodMiniObject<Shape, z.core.$loose>;

export const str = /* @__PURE__ */ z.string();
export const bool = /* @__PURE__ */ z.boolean();
/** A 32-bit signed integer. */
export const int32 = /* @__PURE__ */ z.int32();
/** A 64-bit integer as JSON carries it: a safe JavaScript integer (timestamps, counters). */
export const int64 = /* @__PURE__ */ z.int();
/** A field whose JSON type the spec leaves open. Required keys must still be present. */
export const any = /* @__PURE__ */ z.unknown();
/** An optional field of open type. */
export const anyOpt = /* @__PURE__ */ (() => z.optional(z.unknown()))();

/** An optional field that may also be `null` ("X or null" in the spec). */
export const maybe = /* @__NO_SIDE_EFFECTS__ */ <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));

/**
 * The envelope of every list response, around items of `item`.
 * @example
 * const MemberPage = PageSchema(MemberSchema);
 * MemberPage.parse({ data: [], page: 1, pageSize: 10, total: 0, totalPages: 0 });
 */
export const PageSchema = /* @__NO_SIDE_EFFECTS__ */ <T extends z.ZodMiniType>(item: T) =>
  looseObject({ data: z.array(item), page: int64, pageSize: int64, total: int64, totalPages: int64 });

/**
 * The envelope of a list response, with items of type `T`.
 * @example
 * const page = await client.members.list({ pageSize: 50 });
 * console.log(`page ${page.page} of ${page.totalPages}: ${page.data.length} of ${page.total}`);
 */
export interface PageEnvelope<T> {
  /** The items of this page. */
  data: T[];
  /** This page's number, 1-based. */
  page: number;
  /** Items per page. */
  pageSize: number;
  /** Items in the whole list. */
  total: number;
  /** Pages in the whole list. */
  totalPages: number;
  /** Fields the spec does not name, kept as they came. */
  [key: string]: unknown;
}

/**
 * A JSON object whose fields the spec leaves open; every field reaches the caller.
 */
export const OpenObjectSchema = /* @__PURE__ */ looseObject({});
/**
 * A JSON object whose fields the spec leaves open.
 * @example
 * const info = await client.server.info();
 * const extra = info.someFieldTheSpecDoesNotName; // unknown: narrow it before use
 */
export interface OpenObject extends z.infer<typeof OpenObjectSchema> {}

/**
 * The spec's error body: `{"error":{"code","message","details"}}`.
 */
export const ErrorResponseSchema = /* @__PURE__ */ (() =>
  looseObject({
    error: looseObject({ code: str, message: str, details: anyOpt }),
  }))();
/**
 * The spec's error body.
 * @example
 * import { ErrorResponseSchema } from 'community-server-sdk/schemas';
 * const parsed = ErrorResponseSchema.safeParse(await response.json());
 * if (parsed.success) console.log(parsed.data.error.code);
 */
export interface ErrorResponse extends z.infer<typeof ErrorResponseSchema> {}
