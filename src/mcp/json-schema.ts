/**
 * The JSON Schemas of the tools, from the SDK's zod schemas by zod 4's own converter, made
 * compact: a client puts every tool's schemas into the model's context on each turn, so a
 * keyword that constrains nothing, or nothing a JSON number can break, is dropped. What stays
 * says the same of every value it accepted before: a value the zod schema accepts, the JSON
 * Schema accepts (the tests check results with ajv against it).
 * @module
 */
import * as z from 'zod/mini';

/** A JSON Schema, as a plain JSON object. */
export type JsonSchema = { [keyword: string]: unknown };

const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{ "type": "integer" }` alone: a branch of `anyOf` that can join a `type` list. */
const bareType = (schema: unknown): schema is { type: string } =>
  isObject(schema) && Object.keys(schema).length === 1 && typeof schema.type === 'string';

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/**
 * One schema node made compact, its children first:
 * - `additionalProperties: {}` says nothing (anything is allowed by default);
 * - the safe-integer bounds zod gives `z.int()` hold for every integer JSON and JavaScript share;
 * - in a result, the int32 bounds of `z.int32()` (a status, a position): the service's values
 *   keep to them, and they tell a model nothing (an argument keeps them: a model could pass more);
 * - `anyOf` of bare types (`integer` or `null`) is the one `type` list it means.
 */
function compactNode(node: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(node)) return node.map((child) => compactNode(child, io));
  if (!isObject(node)) return node;
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'additionalProperties' && isObject(value) && Object.keys(value).length === 0) continue;
    if (keyword === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    if (keyword === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    out[keyword] = compactNode(value, io);
  }
  if (io === 'output' && out.minimum === INT32_MIN && out.maximum === INT32_MAX) {
    delete out.minimum;
    delete out.maximum;
  }
  const { anyOf } = out;
  if (Array.isArray(anyOf) && Object.keys(out).length === 1 && anyOf.every(bareType)) {
    return { type: anyOf.map((branch) => branch.type) };
  }
  return out;
}

/**
 * The compact JSON Schema of `schema`, as input (a tool's arguments) or output (its result).
 * Without `$schema`: MCP's default dialect (2020-12) is meant, and what is left reads the same
 * in draft-07, which the SDK's client validates with.
 */
export function jsonSchemaOf(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io });
  return compactNode(rest, io) as JsonSchema;
}
