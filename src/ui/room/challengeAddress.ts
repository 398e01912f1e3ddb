/**
 * The address a student opens a challenge at (docs/challenges.md, `?challenge=<id>`), relative to
 * the page: the room's phones link to it. A challenge the lab does not ship (a lesson's own)
 * travels whole in its hash, `carried` (`ch=…`, src/views/challenge/challengeLink.ts). A module
 * of its own: the student's page imports it without the shipped challenges.
 */
export const challengeAddress = (id: string, carried?: string | null): string =>
  `?challenge=${id}${carried ? `#${carried}` : ''}`;
