/**
 * Writes the README's table of list orders from the mock: `npm run readme:orders`.
 * test/mock/engine/api/list-orders.test.ts fails while the committed README differs.
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { listOrders, renderOrders, withOrders } from './readme/orders';

const readme = fileURLToPath(new URL('../README.md', import.meta.url));
writeFileSync(readme, withOrders(readFileSync(readme, 'utf8'), renderOrders(await listOrders())));
console.log(`wrote the list orders into ${readme}`);
