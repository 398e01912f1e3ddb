/**
 * The fault atlas of a batch job, under its table: every single fault its space holds (a crash at
 * each point of each attempt, a clear and re-run of each date, each row arriving late), run and
 * judged on demand, each one click from opening as the workspace (an undoable edit).
 */
import { useMemo, useState } from 'react';
import type { ScenarioInput } from '../../engine';
import { useActions, useLab } from '../../store/LabContext';
import type { LabState } from '../../store/labStore';
import { batchAtlasView } from '../../views/batch/batchAtlas';

const selectPresetRef = (s: LabState) => s.presetRef;

export function BatchAtlas({ scenario }: { scenario: ScenarioInput }) {
  const [open, setOpen] = useState(false);
  return (
    <section aria-label="Batch fault atlas">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide the fault atlas' : 'Fault atlas: every single fault'}
      </button>
      {open && <AtlasTable scenario={scenario} />}
    </section>
  );
}

function AtlasTable({ scenario }: { scenario: ScenarioInput }) {
  const a = useActions();
  const presetRef = useLab(selectPresetRef);
  const rows = useMemo(() => batchAtlasView(scenario), [scenario]);
  if ('error' in rows) return <p>{rows.error}</p>;
  const broken = rows.filter((r) => !r.held).length;
  return (
    <>
      <p data-testid="batch-atlas-summary">
        {rows.length} single faults: {broken} break the claim, {rows.length - broken} keep it.
      </p>
      <table className="batch-atlas">
        <tbody>
          {rows.map((r) => (
            <tr key={r.words} data-testid="batch-atlas-row" data-held={r.held}>
              <td>{r.words}</td>
              <td>{r.outcome}</td>
              <td>
                <button type="button" onClick={() => a.loadScenario(r.scenario, { presetRef })}>
                  Open
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
