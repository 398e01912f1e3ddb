import type { Outcome } from '../../engine';
import { legend } from '../../views/atlas/heatCells';
import type { OutcomeCounts } from '../../views/atlas/heatMap';
import { atlasTestIds } from './atlasTestIds';

/**
 * The heat map's legend: each outcome's swatch and glyph, its name and its count. `outcomes`: the
 * ones a map can show (a batch job's atlas has no stuck run), default all.
 */
export function AtlasLegend({
  totals,
  outcomes,
}: {
  totals: OutcomeCounts;
  outcomes?: readonly Outcome[];
}) {
  return (
    <ul className="atlas-legend" aria-label="Legend" data-testid={atlasTestIds.legend}>
      {legend(totals)
        .filter((l) => !outcomes || outcomes.includes(l.outcome))
        .map((l) => (
          <li key={l.outcome} data-outcome={l.outcome} data-count={l.count}>
            <span className="atlas-swatch" style={{ background: l.colour }} aria-hidden="true">
              {l.glyph}
            </span>{' '}
            {l.label}: <strong>{l.count.toLocaleString('en-US')}</strong>
          </li>
        ))}
    </ul>
  );
}
