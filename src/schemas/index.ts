/**
 * `community-server-sdk/schemas`: one zod schema per resource of the API, for validating data
 * yourself, extending the schemas, or deriving JSON Schema. Types of the main entry are inferred
 * from these, so the two never disagree.
 * Each `…Schema` parses the resource its name says (`MemberSchema` a `Member`); `parse` throws a
 * `ZodError` naming each mismatch, `safeParse` reports them instead.
 * @example
 * import { MemberSchema } from 'community-server-sdk/schemas';
 * const member = MemberSchema.parse(JSON.parse(text)); // throws a ZodError naming each mismatch
 * const checked = MemberSchema.safeParse(JSON.parse(text));
 * if (!checked.success) console.error(checked.error.issues);
 * @module community-server-sdk/schemas
 */
export * from './applications';
export * from './audit-logs';
export * from './cad';
export { ErrorResponseSchema, OpenObjectSchema, PageSchema, type ErrorResponse, type OpenObject, type PageEnvelope } from './common';
export * from './departments';
export * from './health';
export * from './join-requests';
export * from './loas';
export * from './logs';
export * from './members';
export { RoleSchema, ServerInfoSchema, ShiftSchema, type Role, type ServerInfo, type Shift } from './open';
export * from './tokens';
export * from './verification';
