import type { LabState } from '../../store/labStore';
import { useActions, useLab } from '../../store/LabContext';
import { compareOpenedLabel } from '../../views/compare/compareSpec';
import { offerFor } from './compareOffer';
import { ComparePanel } from '../onDemandPanels';
import { compareTestIds } from './compareTestIds';

const selectOpen = (s: LabState) => s.compare !== null;
const selectScenario = (s: LabState) => s.scenario;

/**
 * "Compare": opens the scenario beside itself with the default offer (./compareOffer.ts),
 * or closes Compare. One undoable step either way.
 */
export function CompareButton() {
  const open = useLab(selectOpen);
  const scenario = useLab(selectScenario);
  const a = useActions();
  return (
    <button
      type="button"
      data-testid={compareTestIds.toggle}
      aria-pressed={open}
      title="Run the same workload and faults under other configurations, side by side"
      // The lanes' panel is a chunk of its own: its download starts before the click.
      onPointerEnter={ComparePanel.preload}
      onFocus={ComparePanel.preload}
      onClick={() => {
        if (open) return a.setCompare(null, 'Closed Compare');
        const spec = offerFor(scenario);
        a.setCompare(spec, compareOpenedLabel(spec));
      }}
    >
      Compare
    </button>
  );
}
