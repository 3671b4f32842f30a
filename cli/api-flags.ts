/**
 * The flags and methods of `community-server api`, apart from its code: the registry
 * (`subcommands.ts`) names them without loading the command.
 * @module
 */
import { CONNECTION_OPTIONS } from './connection';
import { OUTPUT_OPTIONS } from './flags';

export const API_OPTIONS = { ...OUTPUT_OPTIONS, ...CONNECTION_OPTIONS };
export const API_METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD'] as const;
