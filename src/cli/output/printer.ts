/**
 * What a command prints on stdout, in the format asked (`--output`, else `table` on a terminal
 * and `json` when piped): one answer as one document, or, with `--all`, items streamed a page
 * at a time as they arrive, so memory holds a page however long the list.
 * - `json`: the answer as it came (a list: its page), indented; streamed: one array, an item a line.
 * - `jsonl`: one item per line (a page: its items; another answer: itself).
 * - `csv`: a header, then one line per item; `table`: the same, aligned, safe for a terminal
 *   (a single object: a table of its fields).
 * `--fields` keeps those fields of each item, in every format.
 * @module
 */
import type { Cli, Output } from '../context';
import { choiceFlag, type Values } from '../flags';
import { visible } from '../terminal';
import { fieldsOf, isPage, itemsOf, parseFields, project, rowOf, type Field } from './cells';
import { csvLine } from './csv';
import { recordTable, TableLayout } from './table';

export const FORMATS = ['table', 'json', 'jsonl', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

/** A sink of items, written a batch (a page) at a time. */
export interface ItemSink {
  write(items: readonly unknown[]): Promise<void>;
  /** After the last batch. */
  end(): Promise<void>;
}

/** How to print: the format and the fields of `--output` and `--fields`. */
export interface Printing {
  readonly format: Format;
  readonly fields: Field[] | undefined;
}

/** The printing `values` ask for, on `cli`'s stdout. */
export const printingOf = (values: Values, cli: Cli): Printing => ({
  format: choiceFlag(values, 'output', FORMATS) ?? (cli.io.stdout.isTTY ? 'table' : 'json'),
  fields: parseFields(values.fields),
});

/** A sink that writes items to `out` as `printing` says. */
export function itemSink({ format, fields }: Printing, out: Output): ItemSink {
  switch (format) {
    case 'json':
      return jsonArraySink(fields, out);
    case 'jsonl':
      return {
        write: (items) => out.write(items.map((item) => `${JSON.stringify(project(item, fields))}\n`).join('')),
        end: async () => {},
      };
    case 'csv':
      return rowSink(
        fields,
        out,
        (columns) => csvLine(columns.map((field) => field.name)),
        (_, row) => csvLine(row),
      );
    case 'table': {
      let layout: TableLayout | undefined;
      return rowSink(
        fields,
        out,
        (columns, firstRows) => (layout = new TableLayout(columns, firstRows)).header(columns),
        (_, row) => layout!.row(row),
      );
    }
  }
}

/** Prints one answer of a request as one document. */
export async function printDocument(value: unknown, printing: Printing, out: Output): Promise<void> {
  const { format, fields } = printing;
  if (typeof value === 'string') {
    return out.write(format === 'json' || format === 'jsonl' ? `${JSON.stringify(value)}\n` : textFor(value, format));
  }
  if (format === 'json') {
    const shown = isPage(value)
      ? { ...value, data: value.data.map((item) => project(item, fields)) }
      : Array.isArray(value)
        ? value.map((item) => project(item, fields))
        : project(value, fields);
    return out.line(JSON.stringify(shown, null, 2));
  }
  if (format === 'table' && !isPage(value) && !Array.isArray(value) && typeof value === 'object' && value !== null) {
    return out.write(recordTable(project(value, fields) as Record<string, unknown>));
  }
  const sink = itemSink(printing, out);
  await sink.write(itemsOf(value));
  await sink.end();
}

/** Plain text (a text answer) for a terminal: each line made safe; as it came otherwise. */
const textFor = (text: string, format: Format) =>
  `${format === 'table' ? text.split('\n').map(visible).join('\n') : text}${text.endsWith('\n') ? '' : '\n'}`;

/** `[`, then an item per line, then `]`: one JSON document that never holds more than a batch. */
function jsonArraySink(fields: readonly Field[] | undefined, out: Output): ItemSink {
  let written = 0;
  return {
    write: async (items) => {
      if (items.length === 0) return;
      const lines = items.map((item) => JSON.stringify(project(item, fields))).join(',\n');
      await out.write(`${written === 0 ? '[\n' : ',\n'}${lines}`);
      written += items.length;
    },
    end: () => out.write(written === 0 ? '[]\n' : '\n]\n'),
  };
}

/** A header once the columns are known (from `--fields`, or the first batch), then a line per item. */
function rowSink(
  fields: Field[] | undefined,
  out: Output,
  header: (columns: Field[], firstRows: unknown[][]) => string,
  line: (columns: Field[], row: unknown[]) => string,
): ItemSink {
  let columns: Field[] | undefined;
  const start = async (items: readonly unknown[]) => {
    columns = fields ?? fieldsOf(items);
    if (columns.length) {
      await out.write(
        header(
          columns,
          items.map((item) => rowOf(item, columns!)),
        ),
      );
    }
  };
  return {
    write: async (items) => {
      if (columns === undefined) {
        if (items.length === 0 && !fields) return;
        await start(items);
      }
      if (columns!.length) await out.write(items.map((item) => line(columns!, rowOf(item, columns!))).join(''));
    },
    end: async () => {
      if (columns === undefined && fields) await start([]);
    },
  };
}
