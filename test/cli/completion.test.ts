/**
 * `community-server completion bash|zsh|fish` (issue 32, item 1): each script loads in its shell
 * and completes what the endpoint table and the subcommands hold. bash is required; zsh and
 * fish are tested where installed. zsh's completion functions (`compadd`, `_describe`) exist
 * only inside its completion system, so they are stood in for by ones that print their words.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/operations/index';
import { runCommand } from './harness';

const installed = (shell: string) => {
  try {
    execFileSync(shell, ['-c', 'exit 0']);
    return true;
  } catch {
    return false;
  }
};

let dir: string;
const scripts: Record<string, string> = {};
beforeAll(async () => {
  dir = mkdtempSync(`${tmpdir()}/cli-completion-`);
  for (const shell of ['bash', 'zsh', 'fish']) {
    const { code, stdout } = await runCommand(['completion', shell]);
    expect(code).toBe(0);
    writeFileSync((scripts[shell] = `${dir}/completion.${shell}`), stdout);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What bash offers for the command line `words`, the last one being the word completed. */
function bash(words: string[]): string[] {
  const script = `source ${scripts.bash}; COMP_WORDS=(community-server "$@"); COMP_CWORD=$#; _community_server; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['-c', script, 'bash', ...words], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

/** What zsh offers: the script loaded, then its function run with the command line in `words` and `CURRENT`. */
function zsh(words: string[]): string[] {
  const stubs = `compadd() { [[ $1 == -- ]] && shift; print -l -- "$@"; }; _describe() { print -l -- \${(P)\${@[-1]}}; }; _files() { print FILES; }; compdef() { :; }`;
  const script = `${stubs}; source ${scripts.zsh}; words=(community-server "$@"); CURRENT=$(( $# + 1 )); _community_server`;
  return execFileSync('zsh', ['-c', script, 'zsh', ...words], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

/** What fish offers for the command line `line` (its own `complete -C`). */
function fish(line: string): string[] {
  return execFileSync('fish', ['-c', `source ${scripts.fish}; complete -C ${JSON.stringify(line)}`], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

describe('bash', () => {
  it('loads, and completes groups and subcommands, then each group down to its commands', () => {
    expect(bash(['m'])).toEqual(['members', 'mcp']);
    expect(bash(['me'])).toEqual(['members']);
    expect(bash([''])).toEqual([...new Set(operations().map(({ words }) => words[0])), 'api', 'watch', 'mcp', 'completion']);
    expect(bash(['cad', 'unit-'])).toEqual(['unit-groups']);
    expect(bash(['departments', 'loas', ''])).toEqual(['list', 'by-member', 'get']);
  });

  it("completes a command's flags (its body's too), --output's formats, and skips flags and their values on the way", () => {
    expect(bash(['--output', 'json', 'members', 'get', 'abc', '--f'])).toEqual(['--fields']);
    expect(bash(['members', 'list', '--output', ''])).toEqual(['table', 'json', 'jsonl', 'csv']);
    expect(bash(['members', 'list', '--a'])).toEqual(['--all']);
    expect(bash(['members', 'get', 'x', '--a'])).toEqual([]); // not a list
    expect(bash(['tokens', 'create', '--'])).toEqual(expect.arrayContaining(['--name', '--expires-in-days']));
    expect(bash(['--base-url', 'http://x', 'mem'])).toEqual(['members']);
  });

  it('completes watch with lists only, and the words completion and api take', () => {
    expect(bash(['watch', 'members', ''])).toEqual(['list']);
    expect(bash(['watch', 'logs', 'list', '--f'])).toEqual(['--forward-to']);
    expect(bash(['completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(bash(['api', 'G'])).toEqual(['GET']);
  });
});

describe.skipIf(!installed('zsh'))('zsh', () => {
  it('loads, and offers words with their summaries, flags, and --sort and --output values', () => {
    expect(zsh(['mem'])).toContain('members:list · get-by-chat-id · get · chat-id');
    expect(zsh(['members', ''])).toContain('get:One member of the server, by id.');
    expect(zsh(['watch', 'departments', 'lo'])).toContain('loas:list · by-member · get');
    expect(zsh(['members', 'list', '--sort', ''])).toEqual(['asc', 'desc']);
    expect(zsh(['members', 'get', 'x', '--'])).toContain('--fields');
    expect(zsh(['watch', 'logs', 'list', '--cursor-file', ''])).toEqual(['FILES']);
  });
});

describe.skipIf(!installed('fish'))('fish', () => {
  it('loads, and completes words with their summaries, flags and values', () => {
    expect(fish('community-server mem')).toEqual(['members\tlist · get-by-chat-id · get · chat-id']);
    expect(fish('community-server tokens create --n')).toEqual(['--name']);
    expect(fish('community-server members list --output ')).toEqual(['csv', 'json', 'jsonl', 'table']);
    expect(fish('community-server completion ')).toEqual(['bash', 'fish', 'zsh']);
    expect(fish('community-server watch departments l')).toEqual([
      "list\tThe server's departments, a page at a time.",
      'loas\tlist · by-member · get',
    ]);
  });
});

it('an unknown shell is a usage error', async () => {
  const { code, stderr } = await runCommand(['completion', 'powershell']);
  expect(code).toBe(2);
  expect(stderr).toContain('completion takes one shell: bash, zsh, fish');
});
