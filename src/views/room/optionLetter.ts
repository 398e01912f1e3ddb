/**
 * A choice's letter, A, B, C, D, by its place among the options: the projector's question box,
 * the phones' options and the room's histogram letter them alike, so that "who chose B?" names
 * the same option on every screen.
 */
export const optionLetter = (k: number): string => String.fromCharCode(65 + k);
