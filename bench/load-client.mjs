// The load client of the HTTP throughput bench (`bench/http-throughput.ts`), in a process of its
// own so its work is never counted against the server it loads. Asked over IPC for a batch
// (`{ url, headers, count, status }`), it sends `count` GETs of `url` through a node:http
// keep-alive agent of 8 connections, 8 at a time, no pipelining, reads each body whole (without
// parsing it: parsing is the client's work, not the server's), and answers `{ ms, failures }`.
// node:http rather than `fetch`: undici's fetch caps one process near 2.6k requests/s on this
// machine, which would measure the client instead of the server.
import { Agent, request } from 'node:http';

const CONNECTIONS = 8;
/** One agent per origin, kept across batches: connections stay open, as a test suite's would. */
const agents = new Map();

const agentOf = (origin) => {
  let agent = agents.get(origin);
  if (!agent) agents.set(origin, (agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })));
  return agent;
};

/** One request: resolves once its body is read, with whether it got the expected status. */
const send = (options, status) =>
  new Promise((resolve, reject) => {
    request(options, (response) => {
      const ok = response.statusCode === status;
      response.on('data', () => undefined);
      response.on('end', () => resolve(ok));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });

async function batch({ url, headers, count, status }) {
  const { origin, hostname, port, pathname, search } = new URL(url);
  const options = { hostname, port, path: pathname + search, headers, agent: agentOf(origin) };
  let left = count;
  let failures = 0;
  const worker = async () => {
    while (left > 0) {
      left--;
      if (!(await send(options, status))) failures++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return { ms: performance.now() - started, failures };
}

process.on('message', (message) => {
  batch(message).then(
    (result) => process.send(result),
    (error) => process.send({ error: String(error?.stack ?? error) }),
  );
});
process.on('disconnect', () => process.exit(0));
