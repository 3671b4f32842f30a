/**
 * CSV (RFC 4180 quoting, one line per row). A cell that a spreadsheet would read as a formula
 * (text starting with `=`, `+`, `-`, `@`, a tab or a carriage return: member-written text can
 * be `=HYPERLINK(…)`) is written with a leading `'`, which makes it text (OWASP's CSV injection
 * advice); numbers are written as they are.
 * @module
 */
import { cellText } from './cells';

const FORMULA = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One cell. */
export function csvCell(value: unknown): string {
  let text = cellText(value);
  if (typeof value === 'string' && FORMULA.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line of cells. */
export const csvLine = (values: readonly unknown[]): string => `${values.map(csvCell).join(',')}\n`;
