/**
 * What every MCP server over one client shares (one per session over HTTP), so an agent cannot
 * spend the token's budget nor get it suspended:
 * - the answers of the last {@link ANSWER_TTL_MS}: a model asks the same question again and again
 *   within a conversation, and a repeated call costs no request. The client's own cache cannot
 *   serve here: `createMcpServer` is given a client whose options are fixed, with or without one.
 *   (Identical calls in flight at once are sent once by the client itself.)
 * - whether the service refused the token (401): from then on no request is sent with it, since
 *   a token that keeps failing to authenticate can be suspended, and a model retries.
 * @module
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolFailure } from './results';

/** How long an answer is reused: short, so what an assistant reads is at most this old. */
export const ANSWER_TTL_MS = 30_000;
/** Answers kept; past it, the least recently used goes. */
export const MAX_ANSWERS = 500;
/**
 * Characters of JSON the kept answers hold at most, whatever their number: an agent paging through
 * a long list of long texts (100 logs of 4,000 characters a page) would otherwise keep hundreds of MB.
 */
export const MAX_ANSWER_CHARACTERS = 4_000_000;

/** An answer's size: the characters of its text, which its structured content mirrors. */
const sizeOf = (result: CallToolResult) => result.content.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0);

export class Memory {
  readonly #answers = new Map<string, { at: number; result: CallToolResult; size: number }>();
  #size = 0;
  /** The service's 401, once it refused the token. */
  refused: ToolFailure | undefined;

  /** The answer to the call `key` if one is fresh. */
  recall(key: string): CallToolResult | undefined {
    const entry = this.#answers.get(key);
    if (entry === undefined) return undefined;
    this.#drop(key);
    if (Date.now() - entry.at >= ANSWER_TTL_MS) return undefined;
    this.#keep(key, entry); // most recently used: last in the map's order
    return entry.result;
  }

  remember(key: string, result: CallToolResult): void {
    this.#drop(key);
    this.#keep(key, { at: Date.now(), result, size: sizeOf(result) });
    // The least recently used go first, down to both bounds (an answer larger than the whole bound is not kept).
    for (const oldest of this.#answers.keys()) {
      if (this.#answers.size <= MAX_ANSWERS && this.#size <= MAX_ANSWER_CHARACTERS) break;
      this.#drop(oldest);
    }
  }

  /** Drops the answers of the tools named `prefix…` (after a write changed what they read). */
  forget(prefix: string): void {
    for (const key of this.#answers.keys()) if (key.startsWith(prefix)) this.#drop(key);
  }

  #keep(key: string, entry: { at: number; result: CallToolResult; size: number }): void {
    this.#answers.set(key, entry);
    this.#size += entry.size;
  }

  #drop(key: string): void {
    const entry = this.#answers.get(key);
    if (entry === undefined) return;
    this.#answers.delete(key);
    this.#size -= entry.size;
  }
}

const memories = new WeakMap<object, Memory>();

/** The memory of `client`'s servers. */
export const memoryOf = (client: object): Memory => memories.get(client) ?? memories.set(client, new Memory()).get(client)!;
