/**
 * The sink panel's "SQL" toggle (docs/sql.md): opens SinkSqlPanel, the table sink's script, loaded
 * on first open so that the page's entry carries only this button.
 */
import { lazy, Suspense, useState } from 'react';
import type { RunView } from '../../views/run/runView';
import { usePage } from '../io/PageContext';
import { usePredictionGate } from '../library/usePredictionGate';
import { testIds } from '../testIds';

const SinkSqlPanel = lazy(() =>
  import('./SinkSqlPanel').then((m) => ({ default: m.SinkSqlPanel })),
);

export function SinkSqlView({ view }: { view: RunView }) {
  const [open, setOpen] = useState(false);
  const page = usePage();
  const hidden = usePredictionGate().answerWaits;
  if (view.scenario.sink.type !== 'table') return null;
  return (
    <div className="sink-sql">
      <button
        type="button"
        aria-expanded={open}
        data-testid={testIds.sinkSqlToggle}
        onClick={() => setOpen((o) => !o)}
      >
        SQL
      </button>
      {open && (
        <Suspense fallback={<p className="muted">Writing the script…</p>}>
          <SinkSqlPanel view={view} page={page} hidden={hidden} />
        </Suspense>
      )}
    </div>
  );
}
