/**
 * What an API token can be, as the client checks one and the mock stores one: visible ASCII
 * (all an `Authorization` header carries as sent) and no shorter than a real token.
 * @module
 */

/** Visible ASCII, no spaces: the characters of a bearer token. */
export const TOKEN_CHARS = /^[\x21-\x7e]+$/;

/** Shorter than any real token; a short one would also have the redaction blank every string it occurs in. */
export const MIN_TOKEN_LENGTH = 8;
