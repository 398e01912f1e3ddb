/**
 * Compare for a batch job, in place of the stream's lanes: each lane's guarantee (or knobs) over
 * the same source table and faults, its totals, then the per-event diff (rows and fate per lane,
 * the events that differ first, each lane's one-sentence why beside its cell, a lost event a
 * struck-through gap where its row should be, as the stream's Compare shows them). Lanes are the page's Compare state: undo, the share link and the
 * Markdown report carry them as for a stream. View model: src/views/batch/batchCompare.ts.
 */
import { useId, useMemo, useState } from 'react';
import type { LabState } from '../../store/labStore';
import { useActions, useLab } from '../../store/LabContext';
import {
  BATCH_LANE_FIELDS,
  batchCompareView,
  diffLine,
  rowsWords,
} from '../../views/batch/batchCompare';
import {
  laneTypedValue,
  withLaneKnob,
  withoutLaneKnob,
  type LaneSpec,
} from '../../views/compare/lanes';
import { LaneGuaranteeSelect } from '../compare/LaneGuaranteeSelect';
import { HiddenOutcome } from '../library/HiddenOutcome';
import { usePredictionGate } from '../library/usePredictionGate';
import './batch.css';

const selectScenario = (s: LabState) => s.scenario;
const selectCompare = (s: LabState) => s.compare;

export function BatchCompare() {
  const a = useActions();
  const scenario = useLab(selectScenario);
  const spec = useLab(selectCompare);
  const view = useMemo(() => (spec ? batchCompareView(scenario, spec) : null), [scenario, spec]);
  // The lanes' verdicts and the diff hold the prediction's answer: while it waits, only the
  // lanes' choices show, as the stream's Compare does (usePredictionGate).
  const gate = usePredictionGate();
  if (!spec || !view) return null;
  const setLane = (i: number, lane: LaneSpec, what: string) =>
    a.setCompare(
      { lanes: spec.lanes.map((l, j) => (j === i ? lane : l)) },
      `Compare lane ${i + 2}: ${what}`,
    );
  // The events that differ first, each group in the source table's order.
  const events = [
    ...view.events.filter((e) => e.differs),
    ...view.events.filter((e) => !e.differs),
  ];
  return (
    <section className="batch-lab" aria-label="Compare batch lanes" data-testid="batch-compare">
      {/* Wider than a narrow window, the table scrolls in its own box, not the page. */}
      <div className="batch-table-scroll">
        <table className="batch-compare">
          <thead>
            <tr>
              <th scope="col">Event</th>
              {view.lanes.map((l, i) => (
                <th key={i} scope="col" data-testid="batch-lane">
                  {i === 0 ? (
                    l.title
                  ) : (
                    <LaneGuaranteeSelect
                      aria-label={`Lane ${i + 1} guarantee`}
                      lane={spec.lanes[i - 1]!}
                      onChange={(lane, g) => setLane(i - 1, lane, g ?? 'as on screen')}
                    />
                  )}
                  {i > 0 && (
                    <BatchLaneFields
                      number={i + 1}
                      lane={spec.lanes[i - 1]!}
                      onChange={(lane, what) => setLane(i - 1, lane, what)}
                    />
                  )}
                  {!gate.hidden && (
                    <div className="muted" data-testid="batch-lane-summary">
                      {l.summary}
                      {l.held === null ? '' : l.held ? ' · held' : ' · broken'}
                      {l.sameAsFirst && (
                        <p className="why" data-testid="batch-lane-same">
                          {l.sameAsFirst}
                        </p>
                      )}
                    </div>
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(gate.hidden ? [] : events).map((e) => (
              <tr
                key={e.id}
                data-testid="batch-diff-row"
                data-event={e.id}
                data-line={diffLine(e)}
                data-differs={e.differs || undefined}
              >
                <th scope="row">{e.id}</th>
                {e.cells.map((c, i) => (
                  <td key={i} data-fate={c?.fate}>
                    {c === null ? (
                      '—'
                    ) : c.fate === 'lost' ? (
                      // A gap where the row should be, not a row silently missing.
                      <span className="batch-gap">
                        <span aria-hidden="true">✕ </span>
                        <s>{e.id}</s> {rowsWords(c.rows)}, lost
                      </span>
                    ) : (
                      `${rowsWords(c.rows)}, ${c.fate}`
                    )}
                    {e.differs && c?.why && (
                      <p className="why" data-testid="batch-diff-why">
                        {c.why}
                      </p>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {gate.hidden ? (
        <HiddenOutcome gate={gate} what="compare" />
      ) : (
        <p data-testid="batch-compare-summary">
          {view.differing} of {view.events.length} events differ between the lanes.
        </p>
      )}
      {view.knobs.length > 0 && (
        <div data-testid="batch-compare-knobs">
          <h3>What differs</h3>
          <ul>
            {view.knobs.map((k) => (
              <li key={k.name}>
                <code>{k.name}</code> <span className="muted">({k.system})</span>:{' '}
                {k.values.join(' | ')}
              </li>
            ))}
          </ul>
        </div>
      )}
      <button type="button" data-testid="batch-compare-close" onClick={() => a.setCompare(null)}>
        Close Compare
      </button>
    </section>
  );
}

/**
 * A lane's job fields set otherwise (`batch.dedupe.ttlMs = 86400000`), each removable, and one more
 * set by its path and a value, as `sim --compare batch.dedupe.ttlMs=86400000` sets it (the value
 * read as the CLI reads it: JSON where it is JSON, else the text). Each change is one undo step.
 */
function BatchLaneFields({
  number,
  lane,
  onChange,
}: {
  number: number;
  lane: LaneSpec;
  onChange(lane: LaneSpec, what: string): void;
}) {
  const id = useId();
  const [path, setPath] = useState(BATCH_LANE_FIELDS[0]!.path);
  const [text, setText] = useState('');
  const values = BATCH_LANE_FIELDS.find((f) => f.path === path)?.values ?? '';
  const set = () => {
    if (text.trim() === '') return;
    const value = laneTypedValue(path, text.trim());
    onChange(withLaneKnob(lane, path, value), `${path} = ${JSON.stringify(value)}`);
    setText('');
  };
  return (
    <div className="batch-lane-fields">
      {(lane.knobs ?? []).length > 0 && (
        <ul aria-label={`Lane ${number}: job fields set otherwise`}>
          {lane.knobs!.map((k) => (
            <li key={k.path}>
              <code>{k.path}</code> = {JSON.stringify(k.value)}{' '}
              <button
                type="button"
                className="compare-link"
                aria-label={`Lane ${number}: remove ${k.path}`}
                onClick={() => onChange(withoutLaneKnob(lane, k.path), `${k.path} removed`)}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      <label htmlFor={`${id}-field`} className="visually-hidden">
        Lane {number}: job field to set
      </label>
      <select
        id={`${id}-field`}
        data-testid="batch-lane-field"
        value={path}
        onChange={(e) => setPath(e.target.value)}
      >
        {BATCH_LANE_FIELDS.map((f) => (
          <option key={f.path} value={f.path}>
            {f.path}
          </option>
        ))}
      </select>{' '}
      <label htmlFor={`${id}-value`} className="visually-hidden">
        Lane {number}: its value
      </label>
      <input
        id={`${id}-value`}
        data-testid="batch-lane-value"
        size={12}
        placeholder={values}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') set();
        }}
      />{' '}
      <button type="button" data-testid="batch-lane-set" onClick={set}>
        Set
      </button>
    </div>
  );
}
