/**
 * Every endpoint line, by the name of its `/core` function (`membersGet`): the group modules'
 * top-level bindings in one place, for `src/resources/functions.ts` to read each from.
 * @module
 */
export * from './admin';
export * from './applications';
export * from './audit-logs';
export * from './cad';
export * from './departments';
export * from './health';
export * from './join-requests';
export * from './loas';
export * from './logs';
export * from './members';
export * from './roles';
export * from './server';
export * from './shifts';
export * from './tokens';
export * from './verification';
