#!/usr/bin/env node
/**
 * The bin `community-server`: the Community Server Data API from a shell. See `run.ts` for the
 * dispatcher, and `community-server --help`.
 * @module
 */
import { createCli } from './context';
import { EXIT } from './failure';
import { runCli } from './run';

const interrupt = new AbortController();
// The first Ctrl-C asks the command to stop cleanly (a line is never cut, a delivery in flight
// finishes); a second one ends the process at once.
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) process.exit(EXIT.interrupted);
  interrupt.abort();
});

const cli = createCli(process, interrupt.signal);
// The env token is known from the start: a usage error quoting an argument must not show it either.
const envToken = process.env.COMMUNITY_SERVER_TOKEN?.trim();
if (envToken) cli.secrets.add(envToken);

const code = await runCli(process.argv.slice(2), cli);
await Promise.all([cli.out.flush(), cli.err.flush()]);
process.exit(code);
