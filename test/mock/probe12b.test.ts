import { createMockApi, snapshotWorld, DEFAULT_COUNTS } from 'community-server-sdk/mock';
import { it } from 'vitest';
import { mockClient } from '../helpers';

const log = (...a: unknown[]) => console.log('PROBE', ...a);
const tryIt = async (name: string, f: () => unknown) => { try { log(name, 'OK', JSON.stringify(await f())?.slice(0, 300)); } catch (e) { log(name, 'THROW', (e as Error).name, (e as Error).message.slice(0, 300)); } };

it('probes', async () => {
  const zero = createMockApi({ seed: 3, counts: Object.fromEntries(Object.keys(DEFAULT_COUNTS).map((k) => [k, 0])) as never });
  let snap: any;
  await tryIt('snapshot zero', async () => (snap = await snapshotWorld(mockClient(zero) as never, { progress: false } as never)));
  await tryIt('serve zero', () => createMockApi({ world: snap }).store.main.members.size);
  const noCad = createMockApi({ seed: 3 });
  const c = mockClient(noCad, { token: noCad.tokens.noCad } as never);
  let s2: any;
  await tryIt('snapshot nocad', async () => { s2 = await snapshotWorld(c as never); return s2.cad; });
  const base = createMockApi({ seed: 3 });
  let s3: any;
  await tryIt('snapshot main', async () => { s3 = await snapshotWorld(mockClient(base) as never); return Object.keys(s3); });
  const text = JSON.stringify(s3);
  await tryIt('extra field', () => createMockApi({ world: { ...JSON.parse(text), extra: 1 } }).store.main.members.size);
  await tryIt('proto', () => { const w = JSON.parse(text.replace('{', '{"__proto__":{"version":1},')); return createMockApi({ world: w }).store.main.members.size; });
  await tryIt('proto in member', () => { const w = JSON.parse(text); w.members[0] = JSON.parse(JSON.stringify(w.members[0]).replace('{', '{"__proto__":{"x":1},')); const m = createMockApi({ world: w }); return m.store.main.members.all()[0]; });
  await tryIt('wrong version', () => createMockApi({ world: { ...JSON.parse(text), version: 2 } }));
  await tryIt('huge number', () => createMockApi({ world: JSON.parse(text.replace(/"createdAt":\d+/, '"createdAt":1e400')) }));
  await tryIt('no version', () => createMockApi({ world: {} as never }));
  await tryIt('array', () => createMockApi({ world: [] as never }));
  // duplicate and dangling
  await tryIt('dup member', async () => { const w = JSON.parse(text); w.members.push(w.members[0]); const m = createMockApi({ world: w }); const r = await m.fetch(new Request(`http://x/api/v1/server/members/${w.members[0].id}`, { headers: { authorization: 'Bearer ' + m.tokens.main } })); return [r.status, m.store.main.members.size]; });
  await tryIt('dangling notes', async () => { const w = JSON.parse(text); w.cad.calls = []; const m = createMockApi({ world: w }); const r = await m.fetch(new Request(`http://x/api/v1/server/cad/calls/${w.cad.notes[0].callId}/notes`, { headers: { authorization: 'Bearer ' + m.tokens.main } })); return [r.status, (await r.text()).slice(0, 100)]; });
  await tryIt('dept dup', async () => { const w = JSON.parse(text); w.departments.push(w.departments[0]); const m = createMockApi({ world: w }); return m.store.main.departments.size; });
  await tryIt('link dangling', async () => { const w = JSON.parse(text); w.accountLinks.push({ memberId: 'nope', chatId: '1', gameId: '2' }); const m = createMockApi({ world: w }); return m.store.main.links?.size; });
  // every GET on a world where members are gone
  const w = JSON.parse(text); w.members = []; 
  const m = createMockApi({ world: w });
  const paths = ['/api/v1/server/logs', '/api/v1/server/applications', '/api/v1/server/shifts', '/api/v1/server/loas', `/api/v1/server/departments/${w.departments[0]?.department.id}/members`, '/api/v1/server/join-requests', '/api/v1/server', '/api/v1/server/members'];
  for (const p of paths) { const r = await m.fetch(new Request('http://x' + p, { headers: { authorization: 'Bearer ' + m.tokens.main } })); log(p, r.status); }
  await tryIt('snapshot of snapshot', async () => Object.keys(await snapshotWorld(mockClient(m) as never)));
  await tryIt('create in snapshot world', () => createMockApi({ world: JSON.parse(text) }).store.main.logs.create());
});
