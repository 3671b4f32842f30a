/**
 * The one-line progress of a snapshot on a terminal: the group being read and the rows so far,
 * redrawn in place. Nothing at all is written to a stream that is not a TTY (a log file, a pipe,
 * CI), so a snapshot taken in a script leaves its output clean.
 * @module
 */

/**
 * Where a progress line may go: `process.stderr`, or anything with `write` (drawn only when `isTTY`).
 * @example
 * await snapshotWorld(client, { progress: process.stdout });
 */
export interface ProgressStream {
  /** Whether it is a terminal: the line is drawn only then. */
  readonly isTTY?: boolean | undefined;
  /** Writes text as is (the line redraws itself with a carriage return). */
  readonly write: (text: string) => unknown;
}

export interface ProgressMeter {
  /** A new group is being read. */
  step(label: string): void;
  /** `rows` more rows read. */
  add(rows: number): void;
  /** The last line, kept on screen. */
  finish(summary: string): void;
}

/** Redraws at most this often: a fast server answers hundreds of pages a second. */
const REDRAW_MS = 100;
/** Back to the line's start, and clear it. */
const CLEAR = '\r\u001b[2K';

const SILENT: ProgressMeter = { step() {}, add() {}, finish() {} };

export function progressMeter(stream: ProgressStream | undefined, now: () => number = Date.now): ProgressMeter {
  if (!stream?.isTTY) return SILENT;
  const started = now();
  let label = '';
  let rows = 0;
  let drawnAt = 0;
  const draw = (force: boolean) => {
    if (!force && now() - drawnAt < REDRAW_MS) return;
    drawnAt = now();
    stream.write(`${CLEAR}snapshot: ${label}… ${rows.toLocaleString('en')} rows`);
  };
  return {
    step(next) {
      label = next;
      draw(true);
    },
    add(more) {
      rows += more;
      draw(false);
    },
    finish(summary) {
      stream.write(`${CLEAR}${summary}: ${rows.toLocaleString('en')} rows in ${((now() - started) / 1000).toFixed(1)} s\n`);
    },
  };
}
