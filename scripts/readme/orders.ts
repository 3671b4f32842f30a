/**
 * The README's table of list orders, generated from the mock itself so it cannot drift: each of
 * the 29 list requests is sent with an `orderBy` no list has, and the mock's 400 says the list's
 * default order and the values it accepts (from the collection specs in mocks/engine/world/).
 * `npm run readme:orders` writes it; test/mock/engine/api/list-orders.test.ts fails while the README differs
 * and checks that the mock really serves each order.
 * @module
 */
import { createMockApi } from '../../mocks/index';
import { endpointsOf } from '../../src/core/endpoint';
import { resources } from '../../src/resources/index';

/** How one list is ordered. */
export interface ListOrder {
  /** The SDK method, e.g. `departments.members.list`. */
  name: string;
  /** Its path parameters, in order (the method's leading arguments). */
  params: string[];
  /** The default `orderBy` and `sort`. */
  orderBy: string;
  sort: 'asc' | 'desc';
  /** What `orderBy` accepts, the default first. */
  accepted: string[];
  /** Accepted names that stand for another field, e.g. `createdAt` for an audit log's `timestamp`. */
  aliases: Record<string, string>;
}

export const ORDERS_START = '<!-- list-orders:start (generated: npm run readme:orders) -->';
export const ORDERS_END = '<!-- list-orders:end -->';

/** Every list request's ordering, asked of a fresh mock. */
export async function listOrders(): Promise<ListOrder[]> {
  const mock = createMockApi();
  const main = mock.store.main;
  // A list under a parent answers 404 before it looks at orderBy: name parents that exist.
  const parents: Record<string, string> = {
    departmentId: main.departments.all()[0]!.id,
    applicationId: main.applications.all()[0]!.id,
    callId: main.cad!.calls.all()[0]!.id,
  };
  const orders: ListOrder[] = [];
  for (const { name, endpoint } of endpointsOf(resources)) {
    if (endpoint.kind !== 'page') continue;
    const params = endpoint.parts.flatMap((part) => (typeof part === 'string' ? [] : [part.name]));
    const path = endpoint.path.replace(/\{(\w+)\}/g, (_, param: string) => encodeURIComponent(parents[param] ?? 'x'));
    const response = await mock.fetch(`http://localhost${path}?orderBy=%20`, { headers: { authorization: `Bearer ${mock.tokens.main}` } });
    const { error } = (await response.json()) as {
      error: { details?: Partial<ListOrder> & { parameter?: string; default?: { orderBy: string; sort: 'asc' | 'desc' } } };
    };
    const details = error.details;
    if (response.status !== 400 || details?.parameter !== 'orderBy' || !details.default) {
      throw new Error(`${name}: the mock did not say its order (${response.status})`);
    }
    orders.push({ name, params, ...details.default, accepted: details.accepted!, aliases: details.aliases ?? {} });
  }
  return orders;
}

/** The Markdown table of `orders`. */
export function renderOrders(orders: readonly ListOrder[]): string {
  const code = (text: string) => `\`${text}\``;
  const lines = ['| Request | Default order | `orderBy` accepts |', '| --- | --- | --- |'];
  for (const order of orders) {
    const accepted = order.accepted.map((field) =>
      order.aliases[field] ? `${code(field)} (= ${code(order.aliases[field])})` : code(field),
    );
    lines.push(`| ${code(`${order.name}(${order.params.join(', ')})`)} | ${code(order.orderBy)} ${order.sort} | ${accepted.join(', ')} |`);
  }
  return lines.join('\n');
}

/** `readme` with the text between the markers replaced by `table`. */
export function withOrders(readme: string, table: string): string {
  const start = readme.indexOf(ORDERS_START);
  const end = readme.indexOf(ORDERS_END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the markers ${ORDERS_START} … ${ORDERS_END}`);
  return `${readme.slice(0, start + ORDERS_START.length)}\n${table}\n${readme.slice(end)}`;
}
