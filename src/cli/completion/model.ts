/**
 * What the completion scripts know, built from the command tree and the registered subcommands:
 * for each place a command line can reach (its words so far, flags left out), the words that
 * may come next (with a one-line summary, for the shells that show one) and the flags taken
 * there; which flags take a value (so a value is not taken for a word), which values some of
 * them take, and which take a file. The three shells' scripts are written from this one model.
 * @module
 */
import type { Operation } from '../../operations/index';
import type { Options } from '../flags';
import { FORMATS } from '../output/printer';
import { ALL_REQUEST_OPTIONS, operationOptions } from '../request';
import { SUBCOMMANDS } from '../subcommands';
import { commandTree, isGroup, type Group } from '../tree';

export interface Candidate {
  readonly word: string;
  readonly summary: string;
}

/** A place a command line can reach. */
export interface Place {
  /** Its words, joined by spaces (`members get`); the root is `''`. */
  readonly path: string;
  /** Whether words the script cannot know (ids) may follow: the place also matches its path and more. */
  readonly open: boolean;
  readonly words: readonly Candidate[];
  readonly flags: readonly string[];
}

export interface CompletionModel {
  readonly places: readonly Place[];
  /** Flags that take a value. */
  readonly valueFlags: readonly string[];
  /** Flags whose value is one of a few words. */
  readonly choices: ReadonlyMap<string, readonly string[]>;
  /** Flags whose value is a file. */
  readonly fileFlags: readonly string[];
}

const flagsOf = (options: Options) => Object.keys(options).map((name) => `--${name}`);
/** A group's summary: its commands, subgroups marked `…`. */
const groupSummary = (group: Group) =>
  [...group.children.entries()].map(([word, child]) => (isGroup(child) ? `${word}…` : word)).join(' · ');

/** The places under `group` (itself included), prefixed by `prefix`, keeping the operations `keep` accepts. */
function placesUnder(
  group: Group,
  prefix: string[],
  keep: (operation: Operation) => boolean,
  flags: (operation: Operation) => Options,
): Place[] {
  const kept = [...group.children.entries()]
    .filter(([, child]) => !isGroup(child) || hasAny(child, keep))
    .filter(([, child]) => isGroup(child) || keep(child));
  const here: Place = {
    path: [...prefix, ...group.words].join(' '),
    open: false,
    words: kept.map(([word, child]) => ({ word, summary: isGroup(child) ? groupSummary(child) : child.summary })),
    flags: ['--help'],
  };
  return [
    here,
    ...kept.flatMap(([, child]) =>
      isGroup(child)
        ? placesUnder(child, prefix, keep, flags)
        : [{ path: [...prefix, ...child.words].join(' '), open: child.params.length > 0, words: [], flags: flagsOf(flags(child)) }],
    ),
  ];
}

const hasAny = (group: Group, keep: (operation: Operation) => boolean): boolean =>
  [...group.children.values()].some((child) => (isGroup(child) ? hasAny(child, keep) : keep(child)));

export function completionModel(): CompletionModel {
  const tree = commandTree();
  const [root, ...requests] = placesUnder(tree, [], () => true, operationOptions);
  const subcommandPlaces = SUBCOMMANDS.flatMap(({ name, options, choices = [], requests: keep }) => {
    if (!keep) return [{ path: name, open: true, words: choices.map((word) => ({ word, summary: '' })), flags: flagsOf(options) }];
    const [top, ...under] = placesUnder(tree, [name], keep, () => options);
    return [{ ...top!, flags: flagsOf(options) }, ...under];
  });
  const all: Options = Object.assign({}, ALL_REQUEST_OPTIONS(), ...SUBCOMMANDS.map(({ options }) => options)) as Options;
  const valueFlags = Object.entries(all)
    .filter(([, { type }]) => type === 'string')
    .map(([name]) => `--${name}`);
  return {
    places: [
      { ...root!, words: [...root!.words, ...SUBCOMMANDS.map(({ name, summary }) => ({ word: name, summary }))], flags: ['--help'] },
      ...requests,
      ...subcommandPlaces,
    ],
    valueFlags,
    choices: new Map<string, readonly string[]>([
      ['--output', FORMATS],
      ['--sort', ['asc', 'desc']],
    ]),
    fileFlags: valueFlags.filter((flag) => flag.endsWith('-file')),
  };
}
