import { useEffect, useMemo } from 'react';
import type { LabState } from '../../store/labStore';
import { useActions, useLab, useView } from '../../store/LabContext';
import { Icon } from '../Icon';
import { HiddenOutcome } from '../library/HiddenOutcome';
import { usePredictionGate } from '../library/usePredictionGate';
import { explanationCoverage } from '../../views/run/runView';
import { testIds } from '../testIds';

const selectHighlight = (s: LabState) => s.highlight;

/**
 * The verdict's explanations: for each group of lost or duplicated events, the one-sentence
 * causal chain from the trace. Choosing one selects its first event and highlights the trace
 * entries it cites (see the "Event trace" tab).
 */
export function Explanations() {
  const view = useView();
  const a = useActions();
  const highlight = useLab(selectHighlight);
  // "Predict first": what went wrong is the answer, so it waits for the reveal.
  const gate = usePredictionGate();
  const verdict = view?.verdict;
  // The engine explains the first anomalies of a run only (a cap): say so when there are more.
  const coverage = useMemo(
    () => (verdict ? explanationCoverage(verdict) : { explained: 0, anomalous: 0 }),
    [verdict],
  );
  // Shown, the "why" needs the run explained: an embed's first run is not (LabDeps.explainLater).
  const unexplained = !gate.finalHidden && view?.verdict.unexplained === true;
  useEffect(() => {
    if (unexplained) a.explainRuns();
  }, [a, unexplained]);
  if (!view) return null;
  const list = view.verdict.explanations;
  const ids = view.events.ids;
  const { explained, anomalous } = coverage;
  return (
    <section className="card" aria-labelledby="why-heading">
      <h2 id="why-heading">Why: what went wrong, and how</h2>
      {gate.finalHidden ? (
        <HiddenOutcome gate={gate} what="why" />
      ) : unexplained ? (
        <p className="muted" aria-busy="true" data-testid={testIds.explanation} data-fate="pending">
          Working out why…
        </p>
      ) : list.length === 0 ? (
        <p className="muted" data-testid={testIds.explanation} data-fate="none">
          <span aria-hidden="true">✓ </span>Every event took effect exactly once at{' '}
          {view.verdict.primaryLabel}.
        </p>
      ) : (
        <ul className="explanations" tabIndex={0} aria-label="Explanations">
          {list.map((x, k) => {
            const pressed =
              highlight.length > 0 &&
              highlight[0] === x.entries[0] &&
              highlight.length === x.entries.length;
            const first = x.events[0]!;
            const j = ids
              ? ids.indexOf(first)
              : Number(first.slice(view.events.idPrefix.length)) - 1;
            return (
              <li key={k}>
                <button
                  type="button"
                  aria-pressed={pressed}
                  data-testid={testIds.explanation}
                  data-fate={x.fate}
                  data-by={x.by}
                  data-events={x.events.join(',')}
                  onClick={() => {
                    if (j >= 0) a.select(j);
                    a.highlightEntries(x.entries);
                  }}
                >
                  <strong className={x.by ? 'fate' : `fate ${x.fate}`}>
                    {x.by ? (
                      <span aria-hidden="true">↺ </span>
                    ) : x.fate === 'lost' ? (
                      <span aria-hidden="true">✕</span>
                    ) : (
                      <Icon name="dup" />
                    )}
                    {x.by ? `re-read by reader ${x.by}` : x.fate}{' '}
                    {x.events.length > 6
                      ? `${x.events.slice(0, 6).join(', ')} and ${x.events.length - 6} more`
                      : x.events.join(', ')}
                  </strong>
                  <span style={{ display: 'block' }}>{x.sentence}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {!gate.finalHidden && explained < anomalous && (
        <p className="muted" data-testid={testIds.explanationsCapped}>
          Explained: the first {explained.toLocaleString('en-US')} of{' '}
          {anomalous.toLocaleString('en-US')} events lost or duplicated.
        </p>
      )}
      {!gate.finalHidden && view.verdict.falseFailures.length > 0 && (
        <p style={{ fontSize: '0.88em' }}>
          <span aria-hidden="true">⚠ </span>
          The application was told these failed although they were written:{' '}
          {view.verdict.falseFailures.slice(0, 20).join(', ')}
          {view.verdict.falseFailures.length > 20 &&
            ` and ${view.verdict.falseFailures.length - 20} more`}
          .
        </p>
      )}
    </section>
  );
}
