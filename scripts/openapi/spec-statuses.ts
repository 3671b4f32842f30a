/**
 * The error statuses of the spec (community-server-api.md) that the SDK's resource table does
 * not imply, keyed by request number (#1..#64, as in spec Part 4 and the resource lines' doc
 * comments). The rest follows from the table itself: 401 and 403 from `auth` (Part 5 items 1, 5–7),
 * 400 from a request body (Part 7: only #56 has one).
 * @module
 */

/**
 * Spec Part 4's 404s, with the reason its "Other statuses" column gives (where it only says
 * "404", the thing the path names). Two requests go beyond that column, marked below: Part 7
 * says a 404 means "the addressed resource does not exist" and that for nested resources "the
 * parent may be the missing item", and the mock answers these 404s.
 */
export const notFoundReasons: Readonly<Record<number, string>> = {
  1: 'server missing, or not the server of the token', // Part 7: #1 addresses a server by id
  4: 'application missing',
  5: 'application missing', // Part 7: the parent application
  7: 'CAD missing',
  8: 'CAD or call missing',
  9: 'CAD missing',
  10: 'CAD or note missing',
  11: 'CAD missing',
  12: 'CAD or hearing missing',
  13: 'CAD missing',
  14: 'CAD or record missing',
  15: 'CAD missing',
  16: 'CAD or group missing',
  17: 'CAD missing',
  18: 'CAD or unit missing',
  20: 'department missing',
  21: 'department missing',
  22: 'department missing',
  23: 'department or request missing',
  24: 'department missing',
  25: 'department missing',
  26: 'department or LOA missing',
  27: 'department missing',
  28: 'department or member missing',
  29: 'department or member missing',
  30: 'department, member or chat ID missing',
  31: 'department missing',
  32: 'department or rank missing',
  33: 'department missing',
  34: 'department missing',
  35: 'department or shift missing',
  36: 'server missing',
  38: 'join request missing',
  41: 'LOA missing',
  45: 'log missing',
  47: 'member missing',
  48: 'member missing',
  49: 'chat ID missing',
  51: 'role missing',
  54: 'shift missing',
  58: 'token missing',
  59: 'game connection missing',
  60: 'account missing',
};

/**
 * Spec Part 4's 503s: #61 when the database or the cache is unavailable, #64 when the service is
 * not ready. Both answer the same body shape as their 200 (plain text for #61, Part 4 notes).
 */
export const unavailableReasons: Readonly<Record<number, string>> = {
  61: 'The database or the cache is unavailable.',
  64: 'The service is not ready; the body has the same shape as the 200 body.',
};
