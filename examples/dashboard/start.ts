/**
 * `npm run dashboard`: builds the dashboard and serves it on loopback until Ctrl-C.
 * `PORT=8080 npm run dashboard` picks the port (default 4173).
 */
import { buildDashboard } from './build';
import { serveStatic } from './server';

const port = Number(process.env.PORT ?? 4173);
const server = await serveStatic(await buildDashboard(), port);
console.log(`Dashboard: ${server.url}
The offline mock runs inside the page (window.mock in the console). Against a server instead:
  ${server.url}?baseUrl=http://127.0.0.1:4010&token=<its token>
Ctrl-C stops this server.`);
