import type { Outcome } from '../../engine';
import { legend, NOT_RUN_LOOK } from '../../views/atlas/heatCells';
import type { OutcomeCounts } from '../../views/atlas/heatMap';
import { formatCountOf } from '../../views/run/format';
import { atlasTestIds } from './atlasTestIds';

/**
 * The heat map's legend: each outcome's swatch and glyph, its name and its count. `outcomes`: the
 * ones a map can show (a batch job's atlas has no stuck run), default all. While the atlas runs,
 * `soFar` adds the placements not run yet and the cells partly run.
 */
export function AtlasLegend({
  totals,
  outcomes,
  soFar,
}: {
  totals: OutcomeCounts;
  outcomes?: readonly Outcome[];
  soFar?: { notRun: number; partlyRun: number };
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
      {soFar && (
        <li data-outcome="not-run" data-count={soFar.notRun}>
          <span className="atlas-swatch atlas-not-run" aria-hidden="true">
            {NOT_RUN_LOOK.glyph}
          </span>{' '}
          {NOT_RUN_LOOK.label}: <strong>{soFar.notRun.toLocaleString('en-US')}</strong>
        </li>
      )}
      {soFar && (
        <li data-outcome="partial" data-count={soFar.partlyRun}>
          <span className="atlas-swatch atlas-partial" aria-hidden="true">
            {'\u00a0'}
          </span>{' '}
          partly run (striped): <strong>{formatCountOf(soFar.partlyRun, 'cell')}</strong>
        </li>
      )}
    </ul>
  );
}
