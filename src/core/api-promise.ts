/**
 * The promise every method returns: awaits to the parsed result, and `.withResponse()` also
 * gives the raw `Response` (status, headers such as `X-RateLimit-Remaining`).
 * @module
 */
import { brand } from './brand';

/**
 * A parsed result together with the `Response` it came from (its body already read).
 * @example
 * const { data, response }: WithResponse<Member> = await client.members.get(id).withResponse();
 */
export interface WithResponse<T> {
  /** The parsed, validated result: what awaiting the call gives. */
  data: T;
  /** The response: status and headers (its body is already read). */
  response: Response;
}

/**
 * A `Promise` of a call's result, with {@link APIPromise.withResponse} for the raw response.
 * The request starts when the method is called, like `fetch`.
 * @example
 * const { data, response } = await client.members.get(id).withResponse();
 * console.log(response.headers.get('x-ratelimit-remaining'), data.id);
 */
export class APIPromise<T> extends Promise<T> {
  /** @internal derived promises (then/catch/finally) are plain Promises, not APIPromises. */
  static override get [Symbol.species]() {
    return Promise;
  }

  static {
    brand(this, 'APIPromise');
  }

  readonly #result: Promise<WithResponse<T>>;

  constructor(result: Promise<WithResponse<T>>) {
    // The base promise is never used: `then` reads #result, so a failure that only
    // `.withResponse()` observes is not also reported as an unhandled rejection here.
    super((resolve) => resolve(undefined as T));
    this.#result = result;
  }

  /**
   * The result together with the `Response` (status, headers).
   * @example
   * const { data: member, response } = await client.members.get(id).withResponse();
   * console.log(member.id, response.status, response.headers.get('x-ratelimit-remaining'));
   */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }

  override then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#result.then((result) => result.data).then(onfulfilled, onrejected);
  }

  override catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.then(undefined, onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }
}
