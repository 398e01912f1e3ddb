import { useMemo } from 'react';
import { entriesOfIdentity } from '../../views/run/at';
import { describeEntry } from '../../views/diagrams/describe';
import { entryNumber, formatMs } from '../../views/run/format';
import { eventIdOf, type RunView } from '../../views/run/runView';
import type { LabState } from '../../store/labStore';
import { useActions, useIdx, useLab, useView } from '../../store/LabContext';
import { usePredictionGate } from '../library/usePredictionGate';
import { testIds } from '../testIds';

const MAX = 400;
const selectSelected = (s: LabState) => s.selected;
const selectHighlight = (s: LabState) => s.highlight;

/**
 * The trace entries of the selected event up to the cursor (and those an explanation cites),
 * each in words; choosing one moves the cursor right after it. The entries after the cursor are
 * listed greyed — except while "Predict first" hides the final outcome: they are the outcome (the
 * retry, the replay, the duplicate write), so then only what has happened up to the cursor is
 * listed. A told answer folds them too until the run reaches its end (or "Reveal now"), as the
 * explanations and the diagrams do.
 */
export function EventTrace() {
  const view = useView();
  const idx = useIdx();
  const a = useActions();
  const selected = useLab(selectSelected);
  const highlight = useLab(selectHighlight);
  const gate = usePredictionGate();
  const ahead = !gate.finalHidden;
  // What the selected event's explanation cites that carries no event of its own (a poll timeout,
  // a refused commit, a crash): part of its story. Not while the explanation is hidden.
  const story = useMemo(
    () => (view && ahead ? storyEntries(view, selected) : []),
    [view, selected, ahead],
  );
  const all = useMemo(() => {
    if (!view) return [];
    const set = new Set<number>([...highlight, ...story]);
    if (selected >= 0 && selected < view.events.identities)
      for (const e of entriesOfIdentity(view, selected, view.n)) set.add(e);
    return [...set].sort((x, y) => x - y).slice(0, MAX);
  }, [view, selected, highlight, story]);
  const entries = ahead ? all : all.filter((e) => e < idx);
  if (!view) return null;
  if (all.length === 0)
    return (
      <p className="muted" data-testid={testIds.eventTrace}>
        Select an event (a log cell, a row, a ledger line or an explanation) to follow it through
        the trace.
      </p>
    );
  // Which entries an explanation cites says what went wrong: not while the outcome is hidden.
  const cited = new Set(ahead ? [...highlight, ...story] : []);
  return (
    <div className="scroll-panel" data-testid={testIds.eventTrace} tabIndex={0}>
      <p style={{ margin: '0 0 0.3em' }}>
        {selected >= 0 ? (
          <>
            Trace of <b className="mono">{eventIdOf(view.events, selected)}</b>
          </>
        ) : (
          'Cited entries'
        )}{' '}
        {!ahead ? (
          <span className="muted" data-testid={testIds.eventTraceHidden}>
            — up to the cursor: what comes next{' '}
            {gate.folded ? 'shows when the run reaches its end' : 'waits for the outcome'}
          </span>
        ) : (
          <span className="muted">— ★ cited by the explanation; greyed: after the cursor</span>
        )}
      </p>
      {entries.length === 0 ? (
        <p className="muted">Nothing has happened to it yet.</p>
      ) : (
        <table className="plain trace-list">
          <thead>
            <tr>
              <th>#</th>
              <th>time</th>
              <th>what happened</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e} className={e < idx ? '' : 'muted'}>
                <td className="mono">{entryNumber(e)}</td>
                <td className="mono">{formatMs(view.cols.time[e]!)}</td>
                <td>
                  <button
                    type="button"
                    style={{ border: 0, background: 'none', padding: 0, textAlign: 'left' }}
                    onClick={() => a.seekIndex(e + 1)}
                    title="Move the cursor here"
                  >
                    {cited.has(e) ? '★ ' : ''}
                    {describeEntry(view, e)}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/**
 * The entries the explanation of identity `j` cites that belong to its story: those carrying no
 * event, or one of its own (a group's sentence cites its first event's entries; another event's
 * are not this one's).
 */
function storyEntries(view: RunView, j: number): number[] {
  if (j < 0 || j >= view.events.identities) return [];
  const id = eventIdOf(view.events, j);
  const x = view.verdict.explanations.find((e) => e.events.includes(id));
  if (!x) return [];
  const c = view.cols;
  return x.entries.filter(
    (e) => e >= 0 && e < view.n && (c.event[e]! < 0 || view.events.identity[c.event[e]!] === j),
  );
}
