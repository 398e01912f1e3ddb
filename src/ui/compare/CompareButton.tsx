import type { LabState } from '../../store/labStore';
import { useActions, useLab } from '../../store/LabContext';
import { defaultCompare } from '../../views/compare/compareSpec';
import { ComparePanel } from '../onDemandPanels';
import { compareTestIds } from './compareTestIds';

const selectOpen = (s: LabState) => s.compare !== null;
const selectScenario = (s: LabState) => s.scenario;

/**
 * "Compare": opens the scenario beside itself under the other two guarantees (the default offer),
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
      onClick={() =>
        a.setCompare(
          open ? null : defaultCompare(scenario),
          open ? 'Closed Compare' : 'Compare: the same faults under the other two guarantees',
        )
      }
    >
      Compare
    </button>
  );
}
