/**
 * A response's body read as text, to a limit: a service answering a body that never ends (or a
 * wrong URL serving a file) must not fill the memory before a timeout ends the read. One took a
 * client to 4.5 GB in its 30 s timeout, and a test worker to a fatal out-of-memory.
 * @module
 */

/**
 * `response`'s body as UTF-8 text, or an error once it passes `limit` bytes (the rest is let go,
 * unread). A `Response` without a body stream (React Native's, a polyfill's) is read whole: it
 * has no other way to read.
 */
export async function readText(response: Response, limit: number): Promise<string> {
  const reader = typeof response.body?.getReader === 'function' ? response.body.getReader() : undefined;
  if (!reader) return response.text();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => {});
      throw new Error(`a body over ${limit / 2 ** 20} MiB; not read`);
    }
    chunks.push(read.value);
  }
  // One chunk (most answers, in memory or on loopback) is decoded as it came, uncopied.
  const bytes = chunks.length == 1 ? chunks[0]! : new Uint8Array(size);
  if (chunks.length != 1) chunks.reduce((at, chunk) => (bytes.set(chunk, at), at + chunk.byteLength), 0);
  return new TextDecoder().decode(bytes);
}
