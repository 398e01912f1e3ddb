import type { LabState } from '../../store/labStore';

/**
 * Whether the scenario on screen is refused: Share and Embed are off then, since a link to it
 * could not be opened (it would be refused again) and the run on screen is not its run.
 */
export const selectRefused = (s: LabState): boolean => s.status === 'invalid';

/** Why Share and Embed are off while the scenario is refused. */
export const REFUSED_TITLE =
  'The scenario on screen is refused, so a link to it could not be opened: fix it or Undo (Ctrl+Z) first';
