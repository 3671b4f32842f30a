// A minimal HTTP server for the command's bench (bench/cli.ts), in its own process so its work is
// counted against neither side: `members.list` over as many members as its first argument says,
// each page built from the page and pageSize asked for, as the API pages.
import { createServer } from 'node:http';
import { member } from './fixture-member.mjs';

const total = Number(process.argv[2] ?? 10_000);
const headers = { 'content-type': 'application/json' };

const server = createServer((request, response) => {
  const query = new URL(request.url, 'http://localhost').searchParams;
  const pageSize = Number(query.get('pageSize') ?? 10);
  const page = Number(query.get('page') ?? 1);
  const first = (page - 1) * pageSize;
  const data = Array.from({ length: Math.max(0, Math.min(pageSize, total - first)) }, (_, i) => member(first + i));
  response.writeHead(200, headers).end(JSON.stringify({ data, page, pageSize, total, totalPages: Math.ceil(total / pageSize) }));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('disconnect', () => process.exit(0));
