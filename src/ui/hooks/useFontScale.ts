import { FONT_SCALES, type LabState } from '../../store/labStore';
import { useLab } from '../../store/LabContext';

const selectFont = (s: LabState) => s.fontStep;

/**
 * The page's text scale (A− / A+), for what is sized in pixels from it: the virtual lists' row
 * heights. The lists call their virtualizer's `measure()` when it changes — the virtualizer keeps
 * the sizes it estimated.
 */
export function useFontScale(): number {
  return FONT_SCALES[useLab(selectFont)] ?? 1;
}
