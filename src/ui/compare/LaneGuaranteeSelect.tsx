import type { Guarantee } from '../../engine';
import { GUARANTEES, type LaneSpec } from '../../views/compare/lanes';

/**
 * A Compare lane's guarantee: one of the three (its recipe applied to the scenario on screen) or
 * "as on screen" (none: the scenario's own knobs). The stream's lane header and a batch job's
 * Compare both choose it here; `onChange` gets the lane with its guarantee set or taken away.
 */
export function LaneGuaranteeSelect({
  lane,
  onChange,
  ...attrs
}: {
  lane: LaneSpec;
  onChange(lane: LaneSpec, guarantee: Guarantee | undefined): void;
  'aria-label'?: string;
  'data-testid'?: string;
}) {
  return (
    <select
      {...attrs}
      value={lane.guarantee ?? ''}
      onChange={(e) => {
        const g = e.target.value as Guarantee | '';
        const next: LaneSpec = { ...lane };
        if (g === '') delete next.guarantee;
        else next.guarantee = g;
        onChange(next, next.guarantee);
      }}
    >
      <option value="">as on screen</option>
      {GUARANTEES.map((g) => (
        <option key={g} value={g}>
          {g}
        </option>
      ))}
    </select>
  );
}
