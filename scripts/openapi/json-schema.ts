/**
 * The SDK's zod schemas as the JSON Schema (draft 2020-12) an OpenAPI 3.1 document embeds, by
 * zod's own `z.toJSONSchema`, with the few changes OpenAPI readers need (see `openApiTweaks`).
 * @module
 */
import * as z from 'zod/mini';

export type JsonSchema = z.core.JSONSchema.BaseSchema;

/** A schema to publish as `components.schemas[name]`. */
export interface Component {
  name: string;
  schema: z.ZodMiniType;
  description?: string | undefined;
}

/** How `#/components/schemas/Member` is spelled. */
export const componentRef = (name: string) => `#/components/schemas/${name}`;

type Override = NonNullable<z.core.ToJSONSchemaParams['override']>;

/**
 * zod writes an integer as its JavaScript range: `z.int32()` as the int32 bounds, and the SDK's
 * int64 (`z.int()`, a safe integer) as ±(2^53 − 1). OpenAPI readers (code generators, Prism)
 * know integers by `format`, so each gets the spec's width as `format` (Part 2: int32, int64).
 * The int32 bounds stay: they are the API's and make validators that ignore `format` check the
 * width. The safe-integer bounds go: they are a limit of JavaScript numbers, not of the API, and
 * would tell other languages that a 64-bit timestamp must stay below 2^53. Bounds the SDK states
 * itself (1 ≤ `expiresInDays` ≤ 36500) stay either way.
 */
const openApiTweaks: Override = ({ zodSchema, jsonSchema }) => {
  const def = zodSchema._zod.def as { type: string; format?: string };
  if (def.type !== 'number') return;
  if (def.format === 'int32') jsonSchema.format = 'int32';
  if (def.format === 'safeint') {
    jsonSchema.format = 'int64';
    if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  }
};

/**
 * `$schema` and `$id` are for standalone schemas; inside an OpenAPI 3.1 document the dialect is
 * the document's, and zod's `$id` (`#/components/schemas/Member`) is a fragment, which 2020-12
 * does not allow as an identifier.
 */
function embeddable({ $schema: _schema, $id: _id, ...schema }: JsonSchema): JsonSchema {
  return schema;
}

/** One zod schema as inline JSON Schema (a parameter's, say), with the same tweaks as the components. */
export function inlineSchema(schema: z.ZodMiniType, io: 'input' | 'output' = 'output'): JsonSchema {
  return embeddable(z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'throw', override: openApiTweaks }));
}

/**
 * `components` as JSON Schemas by name. A component used inside another (a page's items, an
 * error body in the auth-error union) becomes a `$ref` to it. `io: 'input'` describes what a
 * request body may be, `'output'` what a response is.
 */
export function componentSchemas(components: readonly Component[], io: 'input' | 'output'): Record<string, JsonSchema> {
  // A registry holds one name per zod object, but one object can go by several names (the open
  // object is `Token`, `RateLimitStatus` and `ReadinessStatus`). Such names each get a clone, so
  // each is its own component and no other schema that holds the object turns into a `$ref` to
  // one of them by accident.
  const uses = new Map<z.ZodMiniType, number>();
  for (const { schema } of components) uses.set(schema, (uses.get(schema) ?? 0) + 1);

  const registry = z.registry<{ id: string; description?: string }>();
  for (const { name, schema, description } of components) {
    const own = uses.get(schema)! > 1 ? z.clone(schema) : schema;
    registry.add(own, description === undefined ? { id: name } : { id: name, description });
  }
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    metadata: registry,
    uri: componentRef,
    unrepresentable: 'throw',
    override: openApiTweaks,
  });
  // zod moves what it cannot inline (a cycle) to a `__shared` file of its own. The SDK's schemas
  // have none, and a document must not refer to a file that is not there, so fail loudly.
  if ('__shared' in schemas) throw new Error('a schema is shared without a component name; register it');
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, embeddable(schema)]));
}
