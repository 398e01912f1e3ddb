import { useId, useState } from 'react';
import type { Scenario } from '../../engine';
import {
  laneKnobValue,
  withLaneKnob,
  withoutLaneKnob,
  type LaneSpec,
} from '../../views/compare/lanes';
import { formatKnobValue, knobMeta, knobsFor } from '../../views/edit/knobs';
import { compareTestIds } from './compareTestIds';
import { LaneGuaranteeSelect } from './LaneGuaranteeSelect';
import { formatCountOf } from '../../views/run/format';

/**
 * A lane's configuration, editable: its guarantee (the recipe applied to the scenario on screen,
 * or none: the scenario's own knobs), and the knobs it sets otherwise — each removable, one more
 * set with a knob and a value — and the faults it adds (a fault atlas placement), removable. Every change is one undoable edit of the compare state.
 */
export function LaneHeader({
  number,
  lane,
  scenario,
  onChange,
  onRemove,
}: {
  number: number;
  lane: LaneSpec;
  /** The scenario on screen (defaults applied): the knobs offered are those of its pipeline. */
  scenario: Scenario | null;
  onChange(lane: LaneSpec): void;
  onRemove: (() => void) | null;
}) {
  const id = useId();
  const knobs = scenario ? knobsFor(scenario) : [];
  const [path, setPath] = useState(knobs[0]?.path ?? '');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const meta = knobMeta(path);
  const hint =
    meta?.editor.type === 'enum'
      ? meta.editor.options.join(' / ')
      : meta?.editor.type === 'key'
        ? `${meta.editor.options.join(' / ')} / (${meta.editor.columns.join(', ')})`
        : meta?.editor.type === 'boolean' || meta?.editor.type === 'tristate'
          ? 'true / false'
          : meta?.editor.type === 'number' || meta?.editor.type === 'nullable-number'
            ? `${meta.editor.min}–${meta.editor.max}`
            : '';
  const setKnob = () => {
    const r = laneKnobValue(path, text);
    if (!r.ok) {
      setProblem(r.reason);
      return;
    }
    setProblem(null);
    setText('');
    onChange(withLaneKnob(lane, path, r.value));
  };
  return (
    <fieldset className="lane-head" aria-label={`Lane ${number}: its configuration`}>
      <legend className="visually-hidden">Lane {number}: its configuration</legend>
      <label>
        Guarantee{' '}
        <LaneGuaranteeSelect
          data-testid={compareTestIds.laneGuarantee}
          lane={lane}
          onChange={(next) => onChange(next)}
        />
      </label>
      {(lane.knobs ?? []).length > 0 && (
        <ul className="lane-knobs" aria-label={`Lane ${number}: knobs set otherwise`}>
          {lane.knobs!.map((k) => {
            const m = knobMeta(k.path);
            const name = m?.name ?? k.path;
            return (
              <li key={k.path}>
                <code>{name}</code> = {formatKnobValue(m, k.value)}{' '}
                <button
                  type="button"
                  className="compare-link"
                  aria-label={`Lane ${number}: remove ${name}`}
                  onClick={() => onChange(withoutLaneKnob(lane, k.path))}
                >
                  ✕
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {(lane.faults?.length ?? 0) > 0 && (
        <p className="lane-knobs">
          {formatCountOf(lane.faults!.length, 'fault')} of its own (named in its title){' '}
          <button
            type="button"
            className="compare-link"
            aria-label={`Lane ${number}: remove its own faults`}
            onClick={() => {
              const next: LaneSpec = { ...lane };
              delete next.faults;
              onChange(next);
            }}
          >
            ✕
          </button>
        </p>
      )}
      <div className="lane-set-knob">
        <label htmlFor={`${id}-knob`} className="visually-hidden">
          Lane {number}: knob to set
        </label>
        <select
          id={`${id}-knob`}
          data-testid={compareTestIds.laneKnob}
          value={path}
          onChange={(e) => {
            setPath(e.target.value);
            setProblem(null);
          }}
        >
          {knobs.map((k) => (
            <option key={k.path} value={k.path}>
              {k.name}
              {k.path.startsWith('readers.') ? ` (reader ${k.path.split('.')[1]})` : ''}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-value`} className="visually-hidden">
          Lane {number}: its value
        </label>
        <input
          id={`${id}-value`}
          data-testid={compareTestIds.laneKnobValue}
          value={text}
          placeholder={hint}
          size={10}
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') setKnob();
          }}
        />
        <button type="button" data-testid={compareTestIds.laneKnobSet} onClick={setKnob}>
          Set
        </button>
        {onRemove && (
          <button
            type="button"
            data-testid={compareTestIds.laneRemove}
            aria-label={`Remove lane ${number}`}
            onClick={onRemove}
          >
            Remove lane
          </button>
        )}
      </div>
      {problem && (
        <p id={`${id}-problem`} className="lane-problem" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
