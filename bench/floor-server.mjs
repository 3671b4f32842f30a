// The physical floor of the HTTP throughput bench (`bench/http-throughput.ts`): a bare node:http
// server answering, for each path and query, the very answer the mock gave it (status, headers,
// body bytes), captured from the mock first and read from the JSON file at argv[2]:
// `{ [pathAndQuery]: { status, headers, body: base64 } }`. It does nothing else, so what the mock
// costs beyond it is the mock's own work. Prints `{ url }` as one JSON line and runs until killed.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const answers = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8'))).map(([target, { status, headers, body }]) => [
    target,
    { status, headers, body: Buffer.from(body, 'base64') },
  ]),
);

const server = createServer((incoming, outgoing) => {
  const answer = answers.get(incoming.url);
  if (!answer) return outgoing.writeHead(404).end();
  outgoing.writeHead(answer.status, answer.headers).end(answer.body);
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })));
