/**
 * The requests as commands and tools (src/operations): derived from the endpoint table, one per
 * method, with the spellings shared/API.md gives as examples, and a summary for each.
 */
import { describe, expect, it } from 'vitest';
import { operations } from '../../src/operations/index';
import { SUMMARIES } from '../../src/operations/summaries';
import { allEndpoints } from '../../src/resources/catalog';

describe('operations', () => {
  it('one per request of the table, in the spec order, each with a one-line summary and no summary for anything else', () => {
    expect(operations().map((operation) => operation.name)).toEqual(allEndpoints().map((endpoint) => endpoint.name));
    expect(operations()).toHaveLength(64);
    expect(Object.keys(SUMMARIES).sort()).toEqual(
      operations()
        .map((operation) => operation.name)
        .sort(),
    );
    for (const { name, summary } of operations()) {
      expect(summary, name).toMatch(/^[A-Z].{10,110}[.)]$/);
      expect(summary, name).not.toContain('\n');
    }
  });

  it("spells commands, tools and toolsets as shared/API.md's examples do", () => {
    const by = (name: string) => operations().find((operation) => operation.name === name)!;
    expect(by('members.list')).toMatchObject({ words: ['members', 'list'], tool: 'members_list', toolset: 'members', paged: true });
    expect(by('members.getByChatId')).toMatchObject({ words: ['members', 'get-by-chat-id'], tool: 'members_get_by_chat_id' });
    expect(by('cad.unitGroups.get')).toMatchObject({
      words: ['cad', 'unit-groups', 'get'],
      tool: 'cad_unit_groups_get',
      toolset: 'cad',
      params: [{ name: 'groupId', kebab: 'group-id', snake: 'group_id', kind: 'int32' }],
      paged: false,
    });
    expect(by('departments.members.list')).toMatchObject({ words: ['departments', 'members', 'list'], tool: 'departments_members_list' });
    expect(by('joinRequests.get').toolset).toBe('join_requests');
    expect(by('server.info').tool).toBe('server_info');
    expect(by('health.check').tool).toBe('health_check');
    expect(
      operations()
        .filter((operation) => operation.write)
        .map((operation) => operation.tool),
    ).toEqual(['tokens_create', 'tokens_deactivate']);
  });

  it('names no two operations alike on any surface', () => {
    for (const spelling of ['name', 'tool'] as const) {
      expect(new Set(operations().map((operation) => operation[spelling])).size, spelling).toBe(64);
    }
    expect(new Set(operations().map((operation) => operation.words.join(' '))).size).toBe(64);
    expect(new Set(operations().map((operation) => operation.number))).toEqual(new Set(Array.from({ length: 64 }, (_, i) => i + 1)));
  });
});
