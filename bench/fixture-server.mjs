// A minimal HTTP server for the SDK-overhead benchmarks, run in its own process so its work is
// not counted against the client's: a page of 100 members, and one member, as canned JSON.
import { createServer } from 'node:http';
import { member } from './fixture-member.mjs';

const page = JSON.stringify({
  data: Array.from({ length: 100 }, (_, i) => member(i)),
  page: 1,
  pageSize: 100,
  total: 10_000,
  totalPages: 100,
});
const one = JSON.stringify(member(7));
const headers = { 'content-type': 'application/json' };

const server = createServer((request, response) => {
  const body = request.url.startsWith('/api/v1/server/members?') || request.url === '/api/v1/server/members' ? page : one;
  response.writeHead(200, headers).end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('disconnect', () => process.exit(0));
