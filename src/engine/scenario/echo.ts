/**
 * How a message quotes the input back. A refusal names the field and shows what it found, but a
 * hostile or broken file may hold a 2 MB string, a 5,000-character key or an array nested 5,000
 * deep: every message that quotes input goes through these, so none echoes more than
 * {@link ECHO_MAX} characters of it (the CLI prints the messages, the page shows the same ones).
 */

import { groupDigits } from '../groupDigits';

/** The most characters of the input a message quotes. */
export const ECHO_MAX = 200;

/**
 * `text` as a message quotes it: whole up to {@link ECHO_MAX} characters, else its start and how
 * long it was ("kkkk… (5,000 characters)"), never cutting a surrogate pair in half.
 */
export function clipEcho(text: string): string {
  if (text.length <= ECHO_MAX) return text;
  const last = text.charCodeAt(ECHO_MAX - 1);
  const cut = last >= 0xd800 && last <= 0xdbff ? ECHO_MAX - 1 : ECHO_MAX;
  return `${text.slice(0, cut)}… (${groupDigits(text.length)} characters)`;
}

/**
 * A number in words where its digits would mislead: JSON's `1e400` reads as Infinity (beyond the
 * largest double), which a message should not call "a Infinity".
 */
export function numberWords(n: number): string {
  if (n === Infinity) return 'a number too large to represent';
  if (n === -Infinity) return 'a negative number too large to represent';
  return String(n);
}

/**
 * Any JSON value as a message quotes it: a string quoted and clipped, a number as
 * {@link numberWords} says it, an array or an object by its kind only — never serialised, so an
 * array nested 5,000 deep costs nothing.
 */
export function echoValue(value: unknown): string {
  if (typeof value === 'string') return `"${clipEcho(value)}"`;
  if (typeof value === 'number') return numberWords(value);
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/**
 * A value that is none of a set, refused: what is allowed and what came — the one wording of
 * every such refusal (a scenario's field, a configuration file's key, a CLI option, a link's
 * field), each caller putting the field or line in front, as Kafka's `ConfigException` names the
 * setting, the value and the valid ones ("Invalid value 2 for configuration acks: String must be
 * one of: all, -1, 0, 1"; https://kafka.apache.org/documentation/#producerconfigs_acks).
 * @param allowed - the allowed values as the input writes them (JSON-quoted for a JSON field).
 * @param got - what came, as the input wrote it: {@link echoValue} for JSON, `"…"` for text.
 * @param note - why a near value is no match ("Kafka reads them case-sensitively").
 */
export function notOneOf(allowed: readonly string[], got: string, note?: string): string {
  return `expected ${orList(allowed)}, got ${got}${note ? ` (${note})` : ''}`;
}
