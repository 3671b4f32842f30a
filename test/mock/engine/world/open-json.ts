/**
 * Reading the world's open ("any") list fields in tests: they come as a list, as an older row's
 * JSON string of it, or as `null` (see mocks/engine/world/variety.ts).
 */

/** The ids an open list field holds, in either encoding; none when it is `null` or absent. */
export const idsIn = (value: unknown): unknown[] =>
  typeof value === 'string' ? idsIn(JSON.parse(value)) : Array.isArray(value) ? value : [];
