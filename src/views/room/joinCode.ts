/**
 * A room's join code, without the protocol's schemas: the page's entry reads `?join=` before it
 * knows whether it is a student's page, and zod stays off its first load (docs/benchmarks.md).
 */

/** Join codes: 6 characters with no look-alikes (no 0/O, 1/I/L), typed by hand from a projector. */
export const JOIN_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const JOIN_CODE_LENGTH = 6;

/** A code as typed ("abc 23x") made comparable: upper case, spaces and dashes dropped. */
export function normalizeJoinCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '');
}

/** The join code of a student's page (`?join=CODE`), or null. */
export function joinCodeFromSearch(search: string): string | null {
  const code = new URLSearchParams(search).get('join');
  return code === null ? null : normalizeJoinCode(code);
}

/** Whether `code` (normalized) is a join code as the server makes them: 6 of the alphabet's. */
export function wellFormedJoinCode(code: string): boolean {
  return code.length === JOIN_CODE_LENGTH && [...code].every((c) => JOIN_CODE_ALPHABET.includes(c));
}

/** What a student is told when the code typed cannot be one. */
export const JOIN_CODE_HINT = `The room's code is ${JOIN_CODE_LENGTH} letters and digits, as the projector shows it.`;

/** A student's page for room `code`, as a relative address (`?join=CODE`). */
export function joinAddress(code: string): string {
  return `?join=${encodeURIComponent(code)}`;
}
