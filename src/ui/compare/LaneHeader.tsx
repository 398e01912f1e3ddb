import { useId, useRef, useState } from 'react';
import type { Scenario, ScenarioInput } from '../../engine';
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
import { useOptionalPage } from '../io/PageContext';

/**
 * Knobs a lane lists before "and N more": a lane from a whole producer.properties sets a dozen,
 * which as a list pushed its counters and table 200 px below the other lanes'. All of them are
 * in "What differs" too.
 */
const KNOBS_LISTED = 3;

/**
 * A lane's configuration, editable: its guarantee (the recipe applied to the scenario on screen,
 * or none: the scenario's own knobs), and the knobs it sets otherwise — each removable, one more
 * set with a knob and a value — and the faults it adds (a fault atlas placement), removable; or
 * its configuration from the engineer's own files (as Import reads them), set on the scenario on
 * screen. Every change is one undoable edit of the compare state.
 */
export function LaneHeader({
  number,
  lane,
  scenario,
  onScreen,
  onChange,
  onRemove,
}: {
  number: number;
  lane: LaneSpec;
  /** The scenario on screen (defaults applied): the knobs offered are those of its pipeline. */
  scenario: Scenario | null;
  /** The scenario on screen as written: configuration files are set on it. */
  onScreen: ScenarioInput;
  onChange(lane: LaneSpec): void;
  onRemove: (() => void) | null;
}) {
  const id = useId();
  const page = useOptionalPage();
  const picker = useRef<HTMLInputElement>(null);
  /** Files refused: what is wrong, naming each file's line; the lanes stay as they were. */
  const [refused, setRefused] = useState<{ from: string; lines: string[] } | null>(null);
  const fromFiles = async (files: File[]) => {
    // The importer (and its YAML parser) loads on first use, as Import's does.
    const { configLaneFiles } = await import('../io/importConfigFiles');
    const r = await configLaneFiles(files, onScreen);
    if (!r.ok) {
      setRefused({ from: r.from, lines: r.lines });
      return;
    }
    setRefused(null);
    setProblem(null);
    onChange(lane.faults ? { ...r.lane, faults: lane.faults } : r.lane);
    // What was taken from them, key by key, as Import's notice says it.
    page?.notices.push({
      tone: 'info',
      text: `Lane ${number}: ${r.config.summary}`,
      lines: r.config.lines,
    });
  };
  const [allKnobs, setAllKnobs] = useState(false);
  const laneKnobs = lane.knobs ?? [];
  const foldable = laneKnobs.length > KNOBS_LISTED + 1;
  const folded = foldable && !allKnobs;
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
  // The box is 10 characters wide: a choice's values, cut off in its placeholder at 1280×720
  // ("insert / on-con"), are offered as its list too.
  const choices =
    meta?.editor.type === 'enum' || meta?.editor.type === 'key'
      ? meta.editor.options
      : meta?.editor.type === 'boolean' || meta?.editor.type === 'tristate'
        ? ['true', 'false']
        : [];
  const setKnob = () => {
    const r = laneKnobValue(path, text);
    if (!r.ok) {
      setProblem(r.reason);
      return;
    }
    setProblem(null);
    setRefused(null);
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
          onChange={(next) => {
            setRefused(null);
            onChange(next);
          }}
        />
      </label>
      {laneKnobs.length > 0 && (
        <ul className="lane-knobs" aria-label={`Lane ${number}: knobs set otherwise`}>
          {(folded ? laneKnobs.slice(0, KNOBS_LISTED) : laneKnobs).map((k) => {
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
          {foldable && (
            <li>
              <button
                type="button"
                className="compare-link"
                data-testid={compareTestIds.laneKnobsMore}
                aria-expanded={!folded}
                onClick={() => setAllKnobs(folded)}
              >
                {folded
                  ? `and ${formatCountOf(laneKnobs.length - KNOBS_LISTED, 'more knob')}`
                  : 'fewer'}
              </button>
            </li>
          )}
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
          list={choices.length > 0 ? `${id}-choices` : undefined}
          size={10}
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') setKnob();
          }}
        />
        {choices.length > 0 && (
          <datalist id={`${id}-choices`}>
            {choices.map((v) => (
              <option key={v} value={v} />
            ))}
          </datalist>
        )}
        <button type="button" data-testid={compareTestIds.laneKnobSet} onClick={setKnob}>
          Set
        </button>
        <button
          type="button"
          data-testid={compareTestIds.laneFromFiles}
          aria-label={`Lane ${number}: configuration from files (.properties, config.yaml, .sql)`}
          title="Your configuration files (Kafka client .properties, Flink config.yaml, Spark options, the sink's .sql) on the scenario on screen"
          onClick={() => picker.current?.click()}
        >
          From files…
        </button>
        <input
          ref={picker}
          type="file"
          accept=".properties,.yaml,.yml,.sql,text/plain"
          multiple
          hidden
          aria-label={`Lane ${number}: configuration files`}
          data-testid={compareTestIds.laneFiles}
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            if (files.length > 0) void fromFiles(files);
          }}
        />
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
      {refused && (
        <div className="lane-problem" role="alert" data-testid={compareTestIds.laneFilesRefused}>
          <p>
            Lane {number} unchanged: {refused.from} is not a valid configuration.
          </p>
          <ul>
            {refused.lines.map((l, i) => (
              <li key={i}>{l}</li>
            ))}
          </ul>
        </div>
      )}
    </fieldset>
  );
}
