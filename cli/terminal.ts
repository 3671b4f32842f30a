/**
 * Text that came from elsewhere (member-written log texts, usernames, a service's error message)
 * made safe to show on a terminal: a control character in it could move the cursor, rewrite
 * what is already on screen, set the window title or hide text (ESC sequences, carriage
 * returns), and a bidirectional override can make a line read other than it is. Each is shown
 * escaped (`\x1b`, `\u202e`), visibly, instead of acting.
 * @module
 */

/** C0 controls, DEL, C1 controls, line and paragraph separators, bidirectional embeddings, overrides and isolates. */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

const escape = (character: string) => {
  const code = character.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** `text` with every character that could act on a terminal shown escaped instead, on one line. */
export const visible = (text: string): string => text.replace(UNSAFE, escape);
