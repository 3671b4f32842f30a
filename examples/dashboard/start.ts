/**
 * `npm run dashboard`: builds the dashboard and serves it on loopback until Ctrl-C.
 * `PORT=8080 npm run dashboard` picks the port (default 4173).
 */
import { buildDashboard } from './build';
import { serveStatic } from './server';

const port = Number(process.env.PORT ?? 4173);
const server = await serveStatic(await buildDashboard(), port);
console.log(`Dashboard: ${server.url}\nThe offline mock runs inside the page; Ctrl-C stops this server.`);
