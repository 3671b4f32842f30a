/**
 * The README's table of list orders (issue 10, README list): it is what the mock says
 * (`npm run readme:orders` regenerates it), and the mock really serves it: for each of the 29
 * lists, walked to the end through the SDK, the default order is the documented field and
 * direction, and every accepted `orderBy` orders by its field both ways.
 */
import { readFileSync } from 'node:fs';
import { createMockApi } from 'community-server-sdk/mock';
import { beforeAll, describe, expect, it } from 'vitest';
import { mockClient, rawRequest } from '../../../helpers';
import { listOrders, ORDERS_END, ORDERS_START, renderOrders, withOrders, type ListOrder } from '../../../../scripts/readme/orders';
import { method, pick, rows } from './contract-rows';

const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
let orders: ListOrder[];
beforeAll(async () => {
  orders = await listOrders();
});

/** Whether `values` never go against `sort`; missing values come last whatever the direction. */
function inOrder(values: unknown[], sort: 'asc' | 'desc'): boolean {
  const missing = (v: unknown) => v === undefined || v === null;
  return values.every((value, i) => {
    if (i === 0) return true;
    const before = values[i - 1];
    if (missing(value)) return true;
    if (missing(before)) return false;
    return sort === 'asc' ? (before as number) <= (value as number) : (before as number) >= (value as number);
  });
}

describe('README: each list’s default order and orderBy values', () => {
  it('the README’s table is the one the mock gives (run npm run readme:orders)', () => {
    expect(orders).toHaveLength(29);
    expect(withOrders(readme, renderOrders(orders))).toBe(readme);
    expect(readme).toContain(ORDERS_START);
    expect(readme).toContain(ORDERS_END);
  });

  it('a changed order would change the table (the check can fail)', () => {
    const changed = orders.map((o) => (o.name === 'roles.list' ? { ...o, sort: 'desc' as const } : o));
    expect(withOrders(readme, renderOrders(changed))).not.toBe(readme);
  });

  describe('the mock serves every documented order', () => {
    const mock = createMockApi({ seed: 12 });
    const client = mockClient(mock);
    // Filtered lists by their busiest filter value, so each has rows to be out of order.
    const busiest = <Row>(table: readonly Row[], key: (row: Row) => unknown): Row => {
      const counts = new Map<unknown, number>();
      for (const row of table) counts.set(key(row), (counts.get(key(row)) ?? 0) + 1);
      return table.reduce((best, row) => (counts.get(key(row))! > counts.get(key(best))! ? row : best));
    };
    const main = mock.store.main;
    const ids = {
      ...pick(mock.store),
      loa: busiest(main.loas.all(), (l) => l.memberId),
      shift: busiest(main.shifts.all(), (s) => s.memberId),
      username: busiest(main.logs.all(), (l) => l.username).username,
    };

    it('walks each of the 29 lists by default and by each accepted orderBy, both ways', async () => {
      let walked = 0;
      const short: string[] = [];
      for (const order of orders) {
        const row = rows.find((r) => r.name === order.name)!;
        const args = row.args(ids);
        const walk = async (query: object) => {
          const items: Record<string, unknown>[] = [];
          for await (const item of method(client, order.name)(...args, { pageSize: 100, ...query }) as unknown as AsyncIterable<
            Record<string, unknown>
          >) {
            items.push(item);
          }
          return items;
        };
        const byDefault = await walk({});
        expect(byDefault.length, order.name).toBeGreaterThan(0);
        if (byDefault.length < 2) short.push(order.name);
        expect(
          inOrder(
            byDefault.map((item) => item[order.orderBy]),
            order.sort,
          ),
          `${order.name} default ${order.orderBy} ${order.sort}`,
        ).toBe(true);
        for (const orderBy of order.accepted) {
          const field = order.aliases[orderBy] ?? orderBy;
          for (const sort of ['asc', 'desc'] as const) {
            const items = await walk({ orderBy, sort });
            expect(items.length, `${order.name} ${orderBy} ${sort}`).toBe(byDefault.length);
            expect(
              inOrder(
                items.map((item) => item[field]),
                sort,
              ),
              `${order.name} by ${orderBy} ${sort}`,
            ).toBe(true);
            walked++;
          }
        }
      }
      expect(walked).toBeGreaterThanOrEqual(29 * 4);
      expect(short, 'one-row lists prove no order').toEqual([]);
    });

    it('an orderBy a list lacks is a 400 whose details say the rule', async () => {
      const response = await rawRequest(mock, '/api/v1/server/roles?orderBy=name');
      expect(response.status).toBe(400);
      expect((await response.json()).error.details).toMatchObject({
        parameter: 'orderBy',
        accepted: ['createdAt', 'id'],
        default: { orderBy: 'createdAt', sort: 'asc' },
      });
    });
  });
});
