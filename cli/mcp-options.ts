/**
 * The flags of `community-server mcp`, apart from its code: the dispatcher reads them at start
 * (`subcommands.ts`), and the command itself (`mcp.ts`, with the MCP SDK) loads only when it runs.
 * @module
 */
import { CONNECTION_OPTIONS } from './connection';

/** The port `--http` listens on unless `--port` says otherwise. */
export const DEFAULT_MCP_PORT = 4020;

export const MCP_OPTIONS = {
  toolsets: { type: 'string' },
  dynamic: { type: 'boolean' },
  'allow-writes': { type: 'boolean' },
  http: { type: 'boolean' },
  port: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  ...CONNECTION_OPTIONS,
} as const;
