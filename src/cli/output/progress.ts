/**
 * `--all`'s progress, on stderr and only when stderr is a terminal (a script reading stderr gets
 * no carriage returns): one line, rewritten after each page and cleared before anything else is
 * written (rows of a table on the same terminal), and at the end.
 * @module
 */
import type { Cli } from '../context';

const CLEAR = '\r\x1b[K';

export class Progress {
  readonly #cli: Cli;
  readonly #label: string;
  readonly #on: boolean;
  #shown = false;
  #items = 0;

  constructor(cli: Cli, label: string) {
    this.#cli = cli;
    this.#label = label;
    this.#on = cli.io.stderr.isTTY === true;
  }

  /** Clears the line, if shown. */
  async clear(): Promise<void> {
    if (!this.#shown) return;
    this.#shown = false;
    await this.#cli.err.write(CLEAR);
  }

  /** Shows where the walk is, after the page `page` of `totalPages` with `items` items. */
  async show(page: number, totalPages: number, items: number): Promise<void> {
    this.#items += items;
    if (!this.#on) return;
    this.#shown = true;
    await this.#cli.err.write(`${CLEAR}${this.#label}: page ${page} of ${totalPages} · ${this.#items} items`);
  }
}
