/**
 * The batch page (`?batch=<preset-id>[/variant]`): the scheduler as a calendar strip of logical
 * dates with each attempt (execution time, window read, outcome), the partitioned table with rows
 * under the wrong partition marked, and the stories. Click an attempt to fail it mid-write or to
 * clear and re-run its date. Everything shown comes from src/views/batchView.ts.
 */
import { useEffect, useMemo, useState } from 'react';
import type { ScenarioInput } from '../../engine';
import { batchPageView, clearAndRerun, failMidWrite } from '../../views/batchView';
import '../styles.css';
import './batch.css';

export function BatchLab({ initial }: { initial: ScenarioInput }) {
  const [scenario, setScenario] = useState(initial);
  const [shown, setShown] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [menu, setMenu] = useState<number | null>(null);
  const view = useMemo(() => batchPageView(scenario), [scenario]);
  const total = 'error' in view ? 0 : view.attempts.length;
  useEffect(() => {
    if (!playing || shown >= total) return;
    const t = setTimeout(() => setShown((n) => n + 1), 300);
    return () => clearTimeout(t);
  }, [playing, shown, total]);
  if ('error' in view) return <p role="alert">{view.error}</p>;
  const done = shown >= total;
  const edit = (next: ScenarioInput) => {
    setScenario(next);
    setMenu(null);
    setShown(Number.MAX_SAFE_INTEGER);
  };
  return (
    <main className="batch-lab">
      <h1>{view.name}</h1>
      <button
        type="button"
        onClick={() => {
          setShown(0);
          setPlaying(true);
        }}
      >
        Play
      </button>{' '}
      <button type="button" onClick={() => setShown(Number.MAX_SAFE_INTEGER)}>
        Show the end
      </button>
      <section aria-label="Scheduler" className="batch-strip">
        {view.dates.map((d) => (
          <div key={d.label} data-testid="batch-date" className="batch-date">
            <strong>{d.label}</strong>
            <ol>
              {d.attempts
                .filter((a) => a.id < shown)
                .map((a) => (
                  <li key={a.id} data-testid="batch-attempt">
                    <button
                      type="button"
                      aria-expanded={menu === a.id}
                      onClick={() => setMenu(menu === a.id ? null : a.id)}
                      title={a.windowLabel}
                    >
                      {a.words}: {a.outcome}, read {a.window} ({a.rowsRead} rows)
                    </button>
                    {menu === a.id && (
                      <span role="menu">
                        <button
                          type="button"
                          role="menuitem"
                          onClick={() => edit(failMidWrite(scenario, view, a.id))}
                        >
                          Fail this attempt mid-write
                        </button>
                        <button
                          type="button"
                          role="menuitem"
                          onClick={() => edit(clearAndRerun(scenario, a.id))}
                        >
                          Clear and re-run 1 h after it ended
                        </button>
                      </span>
                    )}
                  </li>
                ))}
            </ol>
          </div>
        ))}
      </section>
      {done && (
        <>
          <section aria-label="Target table">
            <h2>Target table by partition</h2>
            {view.partitions.map((p) => (
              <div key={p.label} data-testid="batch-partition" className="batch-partition">
                <strong>{p.label}</strong>:{' '}
                {p.rows.map((r, i) => (
                  <span key={i} className="batch-row" data-wrong={r.wrong || undefined}>
                    {r.event}
                    {r.wrong ? ' (wrong partition)' : ''}
                  </span>
                ))}
              </div>
            ))}
            <p data-testid="batch-summary">{view.summary}</p>
          </section>
          <section aria-label="Explanations">
            {view.explanations.map((e) => (
              <p key={e.template} data-testid="batch-explanation">
                <strong>{e.fate}</strong> {e.events.join(', ')}: {e.sentence}
              </p>
            ))}
          </section>
        </>
      )}
    </main>
  );
}
