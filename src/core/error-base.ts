/**
 * The base of the SDK's errors and the error of a refused argument, in a module of their own:
 * each error class marks itself when it loads (`brand`), which a bundler must keep, so an entry
 * that only refuses arguments (`/query`, `/otel`, `/redis`) carries these two, not every class
 * of `errors.ts`, which re-exports them.
 * @module
 */
import { brand } from './brand';

/**
 * The base of every error this SDK throws, so one `instanceof` check catches them all.
 * @example
 * try { await client.members.get(id); }
 * catch (error) { if (error instanceof CommunityServerError) console.error(error.message); }
 */
export class CommunityServerError extends Error {
  override name = 'CommunityServerError';
  static {
    brand(this, 'CommunityServerError');
  }
}

/**
 * An argument or option the SDK refused before sending anything: an empty id, a non-integer
 * `unitId`, an unknown list parameter, a `baseUrl` that cannot resolve.
 * @example
 * await client.cad.units.get(1.5); // throws InvalidArgumentError: unitId must be an int32
 */
export class InvalidArgumentError extends CommunityServerError {
  override name = 'InvalidArgumentError';
  static {
    brand(this, 'InvalidArgumentError');
  }
}
