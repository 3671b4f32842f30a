/**
 * A realistic world: read through the SDK as a client sees it, the rows of server `main` show
 * every field openapi.json declares, and every way each field can come (a value, `null`,
 * absent; for open "any" fields, several JSON kinds). The field lists come from openapi.json, so
 * a field added there is checked here without touching this file.
 */
import { createMockApi } from 'community-server-sdk/mock';
import { beforeAll, describe, expect, it } from 'vitest';
import openapi from '../../../../openapi.json' with { type: 'json' };
import { mockClient } from '../../../helpers';

interface PropertySchema {
  type?: string | string[];
  anyOf?: PropertySchema[];
  oneOf?: PropertySchema[];
  $ref?: string;
}
interface ObjectSchema {
  properties?: Record<string, PropertySchema>;
  required?: string[];
}
type Row = Record<string, unknown>;

const components = openapi.components.schemas as Record<string, ObjectSchema>;

/** The JSON types a property may take; `[]` for an untyped ("any") property. */
function typesOf(property: PropertySchema): string[] {
  if (property.type !== undefined) return [property.type].flat();
  const variants = property.anyOf ?? property.oneOf;
  return variants ? variants.flatMap(typesOf) : [];
}

/** The kind of a JSON value, as a test of variety tells them apart. */
const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** Fetches all pages of a list. */
const all = <T>(list: { toArray(): Promise<T[]> }) => list.toArray();

/**
 * The rows of `main` per openapi.json resource, read through the SDK: `lists` (every page, and
 * the nested lists of every department and call) and `single` answers (the server, tokens, game
 * connections, health).
 */
async function readWorld(seed: number) {
  const mock = createMockApi({ seed });
  const client = mockClient(mock);
  const page = { pageSize: 100 };
  const applications = await all(client.applications.list(page));
  const departments = await all(client.departments.list(page));
  const calls = await all(client.cad.calls.list(page));
  const inDepartments = async <T>(read: (id: string) => { toArray(): Promise<T[]> }) =>
    (await Promise.all(departments.map((department) => read(department.id).toArray()))).flat();
  const members = await all(client.members.list(page));
  const chatIds = await Promise.all(
    members.map((member) =>
      client.members.chatId(member.id).then(
        (answer) => answer.chatId,
        () => null,
      ),
    ),
  );
  const connections = await Promise.all(
    chatIds.flatMap((chatId) =>
      chatId === null
        ? []
        : [
            client.verification.gameByChatId(chatId).then(
              (answer) => [answer],
              () => [],
            ),
          ],
    ),
  );
  const lists: Record<string, readonly object[]> = {
    Application: applications,
    ApplicationResponse: (
      await Promise.all(applications.map((application) => all(client.applications.responses(application.id, page))))
    ).flat(),
    AuditLogEvent: [...(await all(client.auditLogs.list(page))), ...(await inDepartments((id) => client.departments.auditLogs(id, page)))],
    CadCall: calls,
    CadCallNote: (await Promise.all(calls.map((call) => all(client.cad.calls.notes(call.id, page))))).flat(),
    CadCourtHearing: await all(client.cad.courtHearings.list(page)),
    CadRecord: await all(client.cad.records.list(page)),
    CadUnit: await all(client.cad.units.list(page)),
    CadUnitGroup: await all(client.cad.unitGroups.list(page)),
    Department: departments,
    DepartmentMember: await inDepartments((id) => client.departments.members.list(id, page)),
    DepartmentRank: await inDepartments((id) => client.departments.ranks.list(id, page)),
    JoinRequest: [
      ...(await all(client.joinRequests.list(page))),
      ...(await inDepartments((id) => client.departments.joinRequests.list(id, page))),
    ],
    Loa: [...(await all(client.loas.list(page))), ...(await inDepartments((id) => client.departments.loas.list(id, page)))],
    Log: await all(client.logs.list(page)),
    Member: members,
    Role: await all(client.roles.list(page)),
    Shift: [...(await all(client.shifts.list(page))), ...(await inDepartments((id) => client.departments.shifts.list(id, page)))],
  };
  const tokens = await client.tokens.list();
  const single: Record<string, readonly object[]> = {
    ServerInfo: [await client.server.info()],
    // The secret (`token`) is sent once, in the answer to create().
    Token: [...(Array.isArray(tokens) ? tokens : []), await client.tokens.create({ name: 'realism' })],
    GameConnection: connections.flat(),
    ChatIdResponse: chatIds.flatMap((chatId) => (chatId === null ? [] : [{ chatId }])),
    Account: await Promise.all(connections.flat().map((connection) => client.verification.chatByGameId(connection.gameId!))),
    RateLimitStatus: [await client.admin.rateLimit(mock.store.main.info.id)],
    Metrics: [await client.health.metrics()],
    HealthStatus: [await client.health.live()],
    ReadinessStatus: [await client.health.ready()],
  };
  return { lists, single };
}

/** The resources of openapi.json: its object schemas, but not pages, errors or request bodies. */
const resources = Object.keys(components).filter(
  (name) => !/Page$|Error|Request$|^TokenList$/.test(name) && components[name]!.properties !== undefined,
);

// Seed 1 is the default world; the variety is deterministic per row index, so other seeds show it too.
describe.each([1, 7, 42])('a realistic world (server main, default counts, seed %i)', (seed) => {
  let world: Awaited<ReturnType<typeof readWorld>>;
  beforeAll(async () => {
    world = await readWorld(seed);
  }, 60_000);

  const rowsOf = (name: string) => (world.lists[name] ?? world.single[name]) as Row[];
  /**
   * The listed resources the spec defines (they have required fields). The open ones (role,
   * shift…) and the single answers only need every field present: openapi.json makes all their
   * fields optional and nullable, but a role without an id is no realistic row.
   */
  const defined = () => Object.keys(world.lists).filter((name) => (components[name]!.required ?? []).length > 0);

  it('reads rows of every resource openapi.json declares', () => {
    expect(resources.length).toBeGreaterThan(20);
    for (const name of resources) expect(rowsOf(name)?.length, name).toBeGreaterThan(0);
  });

  it('every declared property is present, with a value, in some row', () => {
    const missing = resources.flatMap((name) =>
      Object.keys(components[name]!.properties!)
        .filter((field) => !rowsOf(name).some((row) => row[field] !== undefined && row[field] !== null))
        .map((field) => `${name}.${field}`),
    );
    expect(missing).toEqual([]);
  });

  it('every optional property of a resource the spec defines is absent in some row', () => {
    const alwaysThere = defined().flatMap((name) => {
      const { properties = {}, required = [] } = components[name]!;
      return Object.keys(properties)
        .filter((field) => !required.includes(field) && world.lists[name]!.every((row) => field in row))
        .map((field) => `${name}.${field}`);
    });
    expect(alwaysThere).toEqual([]);
  });

  it('every nullable property of a resource the spec defines is null in some row and not null in another', () => {
    const unvaried = defined().flatMap((name) => {
      const rows = rowsOf(name);
      return Object.entries(components[name]!.properties!)
        .filter(([, property]) => typesOf(property).includes('null'))
        .filter(([field]) => !rows.some((row) => row[field] === null) || !rows.some((row) => row[field] != null))
        .map(([field]) => `${name}.${field}`);
    });
    expect(unvaried).toEqual([]);
  });

  it('every untyped ("any") property of a resource the spec defines carries at least three JSON kinds', () => {
    const narrow = defined().flatMap((name) =>
      Object.entries(components[name]!.properties!)
        .filter(([, property]) => typesOf(property).length === 0 && property.$ref === undefined)
        .map(
          ([field]) =>
            [
              `${name}.${field}`,
              new Set(world.lists[name]!.filter((row) => field in row).map((row) => kindOf((row as Row)[field]))),
            ] as const,
        )
        .filter(([, kinds]) => kinds.size < 3)
        .map(([field, kinds]) => `${field}: ${[...kinds].join(', ')}`),
    );
    expect(narrow).toEqual([]);
  });

  it('the times a row records after its creation are not before it', () => {
    // Every integer property named for a later moment (`reviewedAt`, `closedAt`, `lastUpdated`…).
    const later = (field: string) => field !== 'createdAt' && /At$|^lastUpdated$|^internalLastChecked$/.test(field);
    const early = Object.keys(world.lists).flatMap((name) =>
      Object.entries(components[name]!.properties!)
        .filter(([field, property]) => later(field) && typesOf(property).includes('integer'))
        .flatMap(([field]) =>
          (world.lists[name] as Row[])
            .filter((row) => typeof row[field] === 'number' && typeof row.createdAt === 'number' && row[field] < row.createdAt)
            .map((row) => `${name}.${field} of ${String(row.id)}`),
        ),
    );
    expect(early).toEqual([]);
  });
});
