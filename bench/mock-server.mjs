/**
 * One HTTP mock in a process of its own, for the control-plane bench: it imports
 * `createMockApi` from the module at argv[2] and `startMockHttpServer` from argv[3] (the built
 * package, or an earlier revision's bundle), serves seed 1 on a free loopback port, prints
 * `{ url, token, adminToken }` as one JSON line, and runs until it is killed. Optional argv[4]:
 * the server's `maxSessions`.
 *
 *   node bench/mock-server.mjs dist/mock.js dist/mock/node.js
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const load = (file) => import(pathToFileURL(resolve(file)).href);
const [{ createMockApi }, { startMockHttpServer }] = await Promise.all([load(process.argv[2]), load(process.argv[3])]);
const mock = createMockApi({ seed: 1 });
const maxSessions = process.argv[4] === undefined ? {} : { maxSessions: Number(process.argv[4]) };
const http = await startMockHttpServer({ mock, ...maxSessions });
console.log(JSON.stringify({ url: http.url, token: mock.tokens.main, adminToken: http.adminToken }));
