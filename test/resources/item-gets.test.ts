/**
 * The list → item get pairs of the resource table (`itemGet` on a list's line): for every list
 * that names one, an item a watch yields is stored as its get's answer, and that get, called as
 * a user calls it (the list's path parameters, then the item's id), answers it from the cache,
 * equal to what the service answers. A pair whose get takes other parameters, or answers another
 * shape, fails here.
 */
import { CommunityServerClient, type WatchCursor } from 'community-server-sdk';
import { createMockApi } from 'community-server-sdk/mock';
import { describe, expect, it } from 'vitest';
import { endpointsOf, isEndpoint, type Endpoint, type ResourceTable } from '../../src/core/endpoint';
import { resources } from '../../src/resources/index';
import { MOCK_ORIGIN } from '../helpers';

const mock = createMockApi({ seed: 3 });
const main = mock.store.main;
const logs = main.logs.all();
/** Values to try for each path parameter a list takes, from the seeded world. */
const candidates: Record<string, readonly unknown[]> = {
  departmentId: main.departments.all().map((row) => row.id),
  callId: main.cad!.calls.all().map((row) => row.id),
  memberId: main.members.all().map((row) => row.id),
  staffId: [...new Set(logs.map((row) => row.createdBy))],
  username: [...new Set(logs.map((row) => row.username))],
};

const lists = endpointsOf(resources).filter(({ endpoint }) => endpoint.itemGet !== undefined);
const params = (endpoint: Endpoint) => endpoint.parts.flatMap((part) => (typeof part === 'string' ? [] : [part.name]));

/** The client method at a dotted name. */
function method(client: CommunityServerClient, name: string) {
  return name.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], client) as (
    ...args: unknown[]
  ) => Promise<unknown> & {
    watch(options: object): AsyncIterator<unknown>;
  };
}

/** The dotted name of `endpoint` in the table. */
const nameOf = (endpoint: Endpoint) =>
  endpointsOf(resources as unknown as ResourceTable).find((entry) => entry.endpoint === endpoint)!.name;

describe('every list that names its item get', () => {
  it('there are such lists, each get a sibling in the list’s table', () => {
    expect(lists.length).toBeGreaterThanOrEqual(25);
    for (const { name, endpoint } of lists) {
      const get = nameOf(endpoint.itemGet!);
      expect(get.slice(0, get.lastIndexOf('.')), name).toBe(name.slice(0, name.lastIndexOf('.')));
      expect(isEndpoint(endpoint.itemGet!)).toBe(true);
    }
  });

  it.each(lists.map(({ name, endpoint }) => [name, endpoint] as const))(
    '%s: a yielded item is what its get answers, from the cache',
    async (name, endpoint) => {
      const client = new CommunityServerClient({
        token: mock.tokens.main,
        baseUrl: MOCK_ORIGIN,
        fetch: mock.fetch,
        maxRetries: 0,
        cache: { ttlMs: 60_000 },
      });
      const names = params(endpoint);
      // The first values of the parameters for which the list has an item.
      let args: unknown[] | undefined;
      for (let i = 0; i < 50 && !args; i++) {
        const tried = names.map((param) => candidates[param]![i % candidates[param]!.length]);
        const page = (await method(client, name)(...tried)) as { data: unknown[] };
        if (page.data.length > 0) args = tried;
      }
      expect(args, `${name}: no seeded item`).toBeDefined();
      const path = endpoint.path.replace(/\{(\w+)\}/g, (_, param: string) => encodeURIComponent(String(args![names.indexOf(param)])));
      const list = `GET ${path}`;
      // A cursor from before anything: every item of the list is new, so the watch yields at once.
      const cursor = (
        endpoint.watch!.time === undefined ? { v: 1, list, seen: [] } : { v: 1, list, after: { time: null, ids: [] } }
      ) as WatchCursor;
      const controller = new AbortController();
      const feed = method(client, name)(...args!).watch({ cursor, intervalMs: 60_000, signal: controller.signal });
      const { value: item } = await feed.next();
      controller.abort();
      const id = (item as Record<string, unknown>)[endpoint.watch!.id];
      const get = nameOf(endpoint.itemGet!);
      const getArgs = params(endpoint.itemGet!).map((param, i, all) => (i === all.length - 1 ? id : args![names.indexOf(param)]));
      const before = mock.requests.length;
      const cached = await method(client, get)(...getArgs);
      expect(mock.requests.length, `${get} answered from the cache`).toBe(before);
      expect(cached).toEqual(item);
      expect(await method(client, get)(...getArgs, { cache: 'no-store' }), `${get} from the service`).toEqual(item);
    },
  );
});
