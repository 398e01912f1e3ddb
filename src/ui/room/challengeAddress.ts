/**
 * The address a student opens a challenge at (docs/challenges.md, `?challenge=<id>`), relative to
 * the page: the room's phones link to it. A module of its own: the student's page imports it
 * without the shipped challenges.
 */
export const challengeAddress = (id: string): string => `?challenge=${id}`;
