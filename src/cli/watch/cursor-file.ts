/**
 * `watch --cursor-file PATH`: where a watch keeps its place, so that a restarted watch resumes
 * with nothing lost or repeated. The file holds the SDK's `watch.cursor` and what it is the
 * cursor of (the list, its ids, the base URL), so a file of another watch is refused rather than
 * followed. It is written whole or not at all (a temporary file, synced, then renamed over it):
 * a crash or a full disk mid-write leaves the previous place. A file that cannot be read as a
 * cursor, or a place where none can be written, is a usage error before anything is sent.
 * @module
 */
import { open, readFile, rename, rm } from 'node:fs/promises';
import { isPlainObject } from '../../core/arguments';
import { CommunityServerError } from '../../core/error-base';
import type { WatchCursor } from '../../core/types';
import { UsageError } from '../failure';

/** What the cursor is the cursor of. */
export interface WatchIdentity {
  /** The list's dotted name: `logs.list`. */
  readonly watch: string;
  readonly ids: readonly (string | number)[];
  readonly baseUrl: string;
}

/** Bigger than any cursor a watch writes (at most 100,000 ids of the SDK's bounds): not one. */
const MAX_BYTES = 128 * 1024 * 1024;

const reasonOf = (error: unknown) => (error as { code?: string }).code ?? String(error);

export class CursorFile {
  readonly #path: string;
  readonly #identity: WatchIdentity;

  private constructor(path: string, identity: WatchIdentity) {
    this.#path = path;
    this.#identity = identity;
  }

  /**
   * The cursor file at `path` for the watch `identity`, and the place it holds (none when the
   * file does not exist yet). Checks that it can be written, before any request.
   */
  static async open(path: string, identity: WatchIdentity): Promise<{ file: CursorFile; cursor: WatchCursor | undefined }> {
    const file = new CursorFile(path, identity);
    const cursor = await file.#read();
    await file.#write(null).catch((error: unknown) => {
      throw new UsageError(`--cursor-file ${path}: cannot write there (${reasonOf(error)})`, 'watch');
    });
    return { file, cursor };
  }

  /** Keeps `cursor` as the watch's place; a failure (a full disk, the directory gone) ends the watch saying what it means. */
  async save(cursor: WatchCursor): Promise<void> {
    await this.#write(this.#content(cursor)).catch((error: unknown) => {
      throw new CommunityServerError(
        `--cursor-file ${this.#path}: could not keep the watch's place (${reasonOf(error)}); the last item printed was delivered, and a restart from the file's place delivers it again`,
      );
    });
  }

  #content(cursor: WatchCursor): string {
    const { watch, ids, baseUrl } = this.#identity;
    return `${JSON.stringify({ v: 1, watch, ids, baseUrl, cursor })}\n`;
  }

  async #read(): Promise<WatchCursor | undefined> {
    let text: string;
    try {
      text = await readFile(this.#path, 'utf8');
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return undefined;
      throw new UsageError(`--cursor-file ${this.#path}: cannot read it (${reasonOf(error)})`, 'watch');
    }
    const corrupt = (what: string) =>
      new UsageError(`--cursor-file ${this.#path} ${what}; move it away to start from now, or name another file`, 'watch');
    if (text.length > MAX_BYTES) throw corrupt('is too large to be a cursor file');
    let content: unknown;
    try {
      content = JSON.parse(text);
    } catch {
      throw corrupt('is not a cursor file (not JSON)');
    }
    if (!isPlainObject(content) || content.v !== 1 || !('cursor' in content)) {
      throw corrupt('is not a cursor file of community-server watch');
    }
    const { watch, ids, baseUrl } = this.#identity;
    if (content.watch !== watch || JSON.stringify(content.ids) !== JSON.stringify(ids) || content.baseUrl !== baseUrl) {
      throw corrupt(
        `holds the place of another watch (${String(content.watch)} ${JSON.stringify(content.ids)} at ${String(content.baseUrl)})`,
      );
    }
    // The SDK checks the cursor itself when the watch starts; a bad one is a usage error there.
    return content.cursor as WatchCursor;
  }

  /** Writes `content` whole (a temporary file, synced, renamed over the file); `null`: only checks that it could, leaving the file as it is. */
  async #write(content: string | null): Promise<void> {
    const temporary = `${this.#path}.${process.pid}.tmp`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      if (content !== null) {
        await handle.writeFile(content);
        await handle.sync();
      }
    } finally {
      await handle.close();
    }
    if (content === null) await rm(temporary);
    else await rename(temporary, this.#path);
  }
}
