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

export class Memory {
  readonly #answers = new Map<string, { at: number; result: CallToolResult }>();
  /** The service's 401, once it refused the token. */
  refused: ToolFailure | undefined;

  /** The answer to the call `key` if one is fresh. */
  recall(key: string): CallToolResult | undefined {
    const entry = this.#answers.get(key);
    if (entry === undefined) return undefined;
    this.#answers.delete(key);
    if (Date.now() - entry.at >= ANSWER_TTL_MS) return undefined;
    this.#answers.set(key, entry); // most recently used: last in the map's order
    return entry.result;
  }

  remember(key: string, result: CallToolResult): void {
    this.#answers.set(key, { at: Date.now(), result });
    if (this.#answers.size > MAX_ANSWERS) this.#answers.delete(this.#answers.keys().next().value!);
  }

  /** Drops the answers of the tools named `prefix…` (after a write changed what they read). */
  forget(prefix: string): void {
    for (const key of this.#answers.keys()) if (key.startsWith(prefix)) this.#answers.delete(key);
  }
}

const memories = new WeakMap<object, Memory>();

/** The memory of `client`'s servers. */
export const memoryOf = (client: object): Memory => memories.get(client) ?? memories.set(client, new Memory()).get(client)!;
