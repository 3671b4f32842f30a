/**
 * The `tools/list` answer. A client puts it into the model's context on every turn, and the
 * API answers the same kinds of item from several requests (`loas_list`, `loas_by_member` and
 * `loas_get` all answer LOAs), so each result's fields are given once per list: a list whose
 * items another tool of the list answers whole says "each as `loas_get` answers", and a tool
 * whose result an earlier tool of the list already describes says "as `departments_loas_get`
 * answers". Both stay schemas every result matches; the server holds each result to its tool's
 * whole schema before it answers, and `describe_endpoint` gives a tool's schemas whole.
 * @module
 */
import type { JsonSchema } from './json-schema';
import type { ToolDefinition } from './tools';

const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A page's `data.items` schema, when `schema` is a page's. */
function pageItems(schema: JsonSchema): JsonSchema | undefined {
  const data = isObject(schema.properties) ? schema.properties.data : undefined;
  return isObject(data) && data.type === 'array' && isObject(data.items) ? data.items : undefined;
}

const reference = (description: string): JsonSchema => ({ type: 'object', description });

/** `definitions` as `tools/list` gives them, in their order. */
export function listing(definitions: readonly ToolDefinition[]): ToolDefinition[] {
  /** The first tool that answers each result, by its schema's JSON. */
  const answeredBy = new Map<string, string>();
  for (const { name, outputSchema } of definitions) {
    const key = JSON.stringify(outputSchema);
    if (!answeredBy.has(key)) answeredBy.set(key, name);
  }
  const describedBy = new Map<string, string>();
  return definitions.map((definition) => {
    let output = definition.outputSchema;
    const items = pageItems(output);
    const itemTool = items && answeredBy.get(JSON.stringify(items));
    if (itemTool !== undefined) {
      const properties = output.properties as JsonSchema;
      const data = { ...(properties.data as JsonSchema), items: reference(`Each as ${itemTool} answers.`) };
      output = { ...output, properties: { ...properties, data } };
    }
    const key = JSON.stringify(output);
    const earlier = describedBy.get(key);
    if (earlier !== undefined) output = reference(`As ${earlier} answers.`);
    else describedBy.set(key, definition.name);
    return output === definition.outputSchema ? definition : { ...definition, outputSchema: output };
  });
}
