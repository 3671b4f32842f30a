/**
 * What every command runs with: its streams, an abort signal that Ctrl-C (or a reader that went
 * away) fires, and the secrets nothing it writes may hold. Data goes to stdout, everything else
 * (errors, warnings, progress) to stderr, each through an {@link Output} that waits when the
 * reader is slower than the command (so memory stays flat however much is written) and replaces
 * every secret it is told of.
 * @module
 */
import { redact } from '../src/core/redact';
import { Interrupted } from './failure';

/** The process's side of the command: streams and environment (a test may pass its own). */
export interface Io {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
}

/** The context a command runs in. */
export interface Cli {
  readonly io: Io;
  /** Data: what the command answers. */
  readonly out: Output;
  /** Errors, warnings, progress. */
  readonly err: Output;
  /** Fires on Ctrl-C, or when stdout's reader has gone: a command stops sending and writing. */
  readonly signal: AbortSignal;
  /** Values replaced by `[redacted]` in all that is written (the token, the webhook secret). */
  readonly secrets: Set<string>;
}

/**
 * A stream written line by line: every secret of `secrets` replaced, and each write awaited
 * while the stream's buffer is full. Once the stream has failed (EPIPE: `| head` closed it),
 * writes are dropped and `closed` fires.
 */
export class Output {
  readonly #stream: NodeJS.WritableStream;
  readonly #secrets: ReadonlySet<string>;
  readonly #closed = new AbortController();

  constructor(stream: NodeJS.WritableStream, secrets: ReadonlySet<string>) {
    this.#stream = stream;
    this.#secrets = secrets;
    stream.on('error', (error: unknown) => this.#closed.abort(new Interrupted(`output closed: ${String(error)}`)));
  }

  /** Fires once the stream cannot be written any more. */
  get closed(): AbortSignal {
    return this.#closed.signal;
  }

  /** Writes `text` (secrets replaced); resolves when the stream can take more. */
  async write(text: string): Promise<void> {
    if (this.#closed.signal.aborted || text === '') return;
    let safe = text;
    for (const secret of this.#secrets) safe = redact(safe, secret);
    if (this.#stream.write(safe)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.#stream.off('drain', done);
        this.#closed.signal.removeEventListener('abort', done);
        resolve();
      };
      this.#stream.once('drain', done);
      this.#closed.signal.addEventListener('abort', done);
    });
  }

  /** Writes `text` and a newline. */
  line(text: string): Promise<void> {
    return this.write(`${text}\n`);
  }

  /** Resolves once everything written so far has been handed to the system. */
  flush(): Promise<void> {
    if (this.#closed.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => this.#stream.write('', () => resolve()));
  }
}

/** A context on `io`, whose signal fires when `interrupt` does or stdout closes. */
export function createCli(io: Io, interrupt: AbortSignal): Cli {
  const secrets = new Set<string>();
  const out = new Output(io.stdout, secrets);
  const err = new Output(io.stderr, secrets);
  return { io, out, err, signal: AbortSignal.any([interrupt, out.closed]), secrets };
}
