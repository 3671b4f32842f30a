/**
 * A table for a terminal: a header, then one line per item, columns padded to the width of the
 * first rows seen (so rows streamed later line up with them) and cut at {@link MAX_WIDTH} with
 * `…`. Every cell goes through `visible()`: text members wrote cannot act on the terminal.
 * @module
 */
import { visible } from '../terminal';
import { cellText, type Field } from './cells';

/** The widest a column gets; longer text is cut. */
export const MAX_WIDTH = 48;
const GAP = '  ';

/** `text` on one line, safe, at most `width` characters (its last one `…` when cut). */
export function fitCell(text: string, width: number): string {
  const safe = visible(text);
  const characters = [...safe];
  return characters.length > width ? `${characters.slice(0, width - 1).join('')}…` : safe;
}

const length = (text: string) => [...text].length;
const pad = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - length(text)));

/** Lines of a table whose columns take their widths from the first rows. */
export class TableLayout {
  readonly #widths: number[];

  constructor(fields: readonly Field[], firstRows: readonly (readonly unknown[])[]) {
    this.#widths = fields.map((field, column) =>
      Math.min(
        MAX_WIDTH,
        Math.max(length(visible(field.name)), ...firstRows.map((row) => length(fitCell(cellText(row[column]), MAX_WIDTH)))),
      ),
    );
  }

  /** The header line. */
  header(fields: readonly Field[]): string {
    return this.line(fields.map((field) => field.name));
  }

  /** One row's line. */
  row(values: readonly unknown[]): string {
    return this.line(values.map(cellText));
  }

  private line(texts: readonly string[]): string {
    return `${texts
      .map((text, column) => pad(fitCell(text, this.#widths[column]!), this.#widths[column]!))
      .join(GAP)
      .trimEnd()}\n`;
  }
}

/** A single object as a table of two columns, field and value. */
export function recordTable(record: Record<string, unknown>): string {
  const entries = Object.entries(record);
  const width = Math.min(MAX_WIDTH, Math.max(0, ...entries.map(([key]) => length(visible(key)))));
  return entries
    .map(([key, value]) => `${pad(fitCell(key, width), width)}${GAP}${fitCell(cellText(value), 200)}`.trimEnd() + '\n')
    .join('');
}
