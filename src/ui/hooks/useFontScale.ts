import { FONT_SCALES, type LabState } from '../../store/labStore';
import { useLab } from '../../store/LabContext';

const selectFont = (s: LabState) => s.fontStep;
const selectPresent = (s: LabState) => s.present;

/**
 * The page's text scale (A− / A+), for what is sized in pixels from it: the virtual lists' row
 * heights. The lists call their virtualizer's `measure()` when it changes — the virtualizer keeps
 * the sizes it estimated. Projector mode sets its own text size (18 px at 1280×720,
 * src/ui/present/present.css) whatever A− / A+ say: 1 there.
 */
export function useFontScale(): number {
  const scale = FONT_SCALES[useLab(selectFont)] ?? 1;
  return useLab(selectPresent) ? 1 : scale;
}
