/**
 * The stdio transport of `community-server mcp`, counting the requests it has not answered: a
 * client may write its requests and close stdin at once (a script, a test, a client shutting
 * down), and the answers to what it asked are still owed. The command closes the server only
 * once stdin has ended and every request is answered (or cancelled).
 * @module
 */
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

const isRequest = (message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId; method: string } =>
  'method' in message && 'id' in message;
const isAnswer = (message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } => !('method' in message) && 'id' in message;

export class StdioTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  readonly #inner: StdioServerTransport;
  readonly #open = new Set<RequestId>();
  #idle: (() => void) | undefined;

  constructor(stdin: Readable, stdout: Writable) {
    this.#inner = new StdioServerTransport(stdin, stdout);
    this.#inner.onclose = () => this.onclose?.();
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onmessage = (message) => {
      if (isRequest(message)) this.#open.add(message.id);
      // A cancelled request gets no answer (MCP's cancellation): nothing is owed for it.
      if ('method' in message && message.method === 'notifications/cancelled') {
        this.#settle((message.params as { requestId: RequestId }).requestId);
      }
      this.onmessage?.(message);
    };
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  /** Over stdio, a message is a line: none of the options of other transports (resumption) applies. */
  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    await this.#inner.send(message);
    if (isAnswer(message)) this.#settle(message.id);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** Resolves once every request received so far is answered. */
  answered(): Promise<void> {
    return this.#open.size === 0 ? Promise.resolve() : new Promise((resolve) => (this.#idle = resolve));
  }

  #settle(id: RequestId): void {
    this.#open.delete(id);
    if (this.#open.size === 0) this.#idle?.();
  }
}
