/**
 * The flags commands share, and `parseArgs` (node:util) turned to this command's ends: its
 * errors become usage errors (exit 2), and a flag's value is read and checked here, once.
 * @module
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './failure';

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | undefined>;

/** What every command that prints answers takes. */
export const OUTPUT_OPTIONS = {
  output: { type: 'string' },
  fields: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

/** What a list takes: its query parameters, and `--all`. */
export const LIST_OPTIONS = {
  page: { type: 'string' },
  'page-size': { type: 'string' },
  limit: { type: 'string' },
  'order-by': { type: 'string' },
  sort: { type: 'string' },
  all: { type: 'boolean' },
} as const satisfies Options;

/** `args` parsed against `options`, positionals allowed; a bad flag is a {@link UsageError} naming the command (`help`). */
export function parse(args: readonly string[], options: Options, help: string): { values: Values; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    return { values: values as Values, positionals };
  } catch (error) {
    // parseArgs names the flag, never its value: its message can be shown as it is.
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError((error as Error).message, help);
    throw error;
  }
}

/**
 * Where the words of `args` are (its positionals, by index in `args`), read leniently: every
 * flag any command knows is in `options`, so a flag's value is not taken for a word; what is
 * wrong is found later, by the command's own strict {@link parse}.
 */
export function wordsOf(args: readonly string[], options: Options): { value: string; index: number }[] {
  const { tokens } = parseArgs({ args: [...args], options, allowPositionals: true, strict: false, tokens: true });
  return tokens.flatMap((token) => (token.kind === 'positional' ? [{ value: token.value, index: token.index }] : []));
}

/** A whole number flag from `min` to `max`, or undefined when absent. */
export function integerFlag(values: Values, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${String(raw)}"`);
  return value;
}

/** A flag that takes one of `choices`, or undefined when absent. */
export function choiceFlag<Choice extends string>(values: Values, name: string, choices: readonly Choice[]): Choice | undefined {
  const raw = values[name];
  if (raw === undefined || (choices as readonly unknown[]).includes(raw)) return raw as Choice | undefined;
  throw new UsageError(`--${name} must be ${choices.join(', ')}; got "${String(raw)}"`);
}
