/**
 * Every request of the API, by namespace: the single table the client binds its methods from
 * (and that tests and the mock walk). Each namespace lists its methods in the spec's order, and
 * the namespaces follow it too, so a walk of the table (`allEndpoints()` in `./catalog`) meets the
 * requests as the spec numbers them. Each description is also its module's top-level export
 * (`membersGet`), for what needs one alone.
 * @module
 */
import { admin } from './admin';
import { applications } from './applications';
import { auditLogs } from './audit-logs';
import { cad } from './cad';
import { departments } from './departments';
import { health } from './health';
import { joinRequests } from './join-requests';
import { loas } from './loas';
import { logs } from './logs';
import { members } from './members';
import { roles } from './roles';
import { server } from './server';
import { shifts } from './shifts';
import { tokens } from './tokens';
import { verification } from './verification';

export const resources = {
  admin,
  applications,
  auditLogs,
  cad,
  departments,
  server,
  joinRequests,
  loas,
  logs,
  members,
  roles,
  shifts,
  tokens,
  verification,
  health,
};

export type Resources = typeof resources;
