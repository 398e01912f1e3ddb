import { useId, useMemo, useState } from 'react';
import type { Scenario } from '../../engine';
import { getKnob, guaranteeKnobs, knobInEffect } from '../../scenarios';
import { selectIssues, selectParse, type LabState } from '../../store/labStore';
import { useActions, useLab, useLabInstance } from '../../store/LabContext';
import {
  formatBound,
  parseNumberIn,
  rangeRule,
  type NumberRange,
} from '../../views/edit/numberField';
import { schemaRange } from '../../views/edit/schemaRange';
import {
  UNSET_DEFAULT_NOTE,
  formatKnobValue,
  knobsFor,
  lastNumberIn,
  type KnobGroup,
  type KnobMeta,
} from '../../views/edit/knobs';
import { useNumberDraft } from '../hooks/useNumberDraft';
import { Breakable } from '../Breakable';
import { Icon } from '../Icon';
import { KeyControl } from './KeyControl';
import { ScenarioNameField } from './ScenarioNameField';
import { testIds } from '../testIds';

const GROUPS: { g: KnobGroup; title: string }[] = [
  { g: 'producer', title: 'producer' },
  { g: 'broker', title: 'broker' },
  { g: 'processor', title: 'processor' },
  { g: 'sink', title: 'sink' },
  { g: 'reader', title: 'downstream readers' },
  { g: 'network', title: 'network' },
];

const selectScenario = (s: LabState) => s.scenario;
const selectView = (s: LabState) => s.view;

/**
 * The first of `values` that is not undefined. Not `??`: null is a value here — a nullable knob
 * that is off (`execution.checkpointing.interval: null`) must not fall through to a default.
 */
function firstDefined(...values: unknown[]): unknown {
  return values.find((v) => v !== undefined);
}

/** Normalise a knob value for comparison and for a select's value. */
function norm(meta: KnobMeta, v: unknown): string {
  if (meta.path === 'producer.acks') return v === -1 || v === '-1' ? 'all' : String(v);
  return v === undefined ? '' : v === null ? 'null' : String(v);
}

/**
 * Every knob of the scenario's pipeline under its real name, editable; the (i) button shows what it does, its
 * real default and the official doc. A knob differing from the claimed guarantee's recipe is
 * marked — those are the knobs the picker's "✎ own settings" badge counts.
 */
export function Knobs() {
  const parsed = useLab(selectParse);
  const view = useLab(selectView);
  const scenario = useLab(selectScenario);
  const issues = useLab(selectIssues);
  const effective: Scenario | undefined = parsed.ok ? parsed.scenario : view?.scenario;
  const preset = useMemo(() => {
    if (!effective) return new Map<string, unknown>();
    const g = effective.claim;
    return new Map(
      guaranteeKnobs(g, effective.processor.type, scenario).map((k) => [k.path, k.value]),
    );
  }, [effective, scenario]);
  // A number that changes with every new scenario object (edit, undo, redo, preset).
  const [rev, setRev] = useState({ scenario, key: 0 });
  if (rev.scenario !== scenario) setRev({ scenario, key: rev.key + 1 });
  const revisionKey = rev.key;
  if (!effective) return null;
  const knobs = knobsFor(effective);
  return (
    <div className="scroll-panel" data-testid={testIds.knobs} tabIndex={0}>
      <ScenarioNameField />
      <p className="muted" style={{ margin: '0 0 0.3em', fontSize: '0.88em' }}>
        Changing a knob re-runs the scenario from the start; playback continues where it is.
      </p>
      {GROUPS.map(({ g, title }) => {
        const list = knobs.filter((k) => k.group === g);
        if (list.length === 0) return null;
        return (
          <div key={g} className="knob-group" role="group" aria-label={`${title} knobs`}>
            <h3>{title}</h3>
            {list.map((k) => (
              <KnobRow
                key={k.path}
                meta={k}
                raw={getKnob(scenario, k.path)}
                inEffect={knobInEffect(effective, k.path)}
                value={firstDefined(
                  // Refused: the fields show what was written (the panels, the last valid run).
                  !parsed.ok ? getKnob(scenario, k.path) : undefined,
                  getKnob(effective, k.path),
                  k.defaultFor?.(effective),
                )}
                refused={issues
                  .filter((i) => i.path === k.path || i.path.startsWith(`${k.path}.`))
                  // An element of a list knob: name it (`….durationsMs.1`).
                  .map((i) => (i.path === k.path ? i.message : `${i.path}: ${i.message}`))}
                preset={preset.has(k.path) ? preset.get(k.path) : NOT_IN_PRESET}
                claim={effective.claim}
                scenario={scenario}
                revisionKey={revisionKey}
              />
            ))}
          </div>
        );
      })}
    </div>
  );
}

const NOT_IN_PRESET = Symbol('not in preset');

function KnobRow({
  meta,
  raw,
  value,
  inEffect,
  refused,
  preset,
  claim,
  scenario: revision,
  revisionKey,
}: {
  meta: KnobMeta;
  /** The scenario as written (its identity changes with every edit, undo, redo and preset). */
  scenario: unknown;
  /** Changes with `scenario`, for keying uncontrolled inputs. */
  revisionKey: number;
  raw: unknown;
  value: unknown;
  /** The value in effect in the last valid scenario, a tristate's rule applied when unset. */
  inEffect: unknown;
  /** Why the scenario is refused at this knob's path (the validator's words), or empty. */
  refused: string[];
  preset: unknown;
  claim: string;
}) {
  const a = useActions();
  const lab = useLabInstance();
  const id = useId();
  const [help, setHelp] = useState(false);
  // A tristate left unset follows its default rule: compare what that rule gives.
  const differs =
    preset !== NOT_IN_PRESET &&
    norm(meta, preset) !== norm(meta, meta.editor.type === 'tristate' ? (raw ?? inEffect) : value);
  const set = (v: unknown) => a.setKnob(meta.path, v);
  const e = meta.editor;
  // What the scenario says now: the value as written when there is one (a refused scenario
  // included, so undoing the refused edit shows the value it goes back to), else the default.
  const shown = raw !== undefined ? raw : value;
  const range: NumberRange = (e.type === 'number' || e.type === 'nullable-number'
    ? schemaRange(meta.path, revision)
    : undefined) ?? { min: 0, max: Number.MAX_SAFE_INTEGER, int: true };
  let control;
  switch (e.type) {
    case 'enum':
      control = (
        <select
          id={id}
          value={e.unsetLabel !== undefined && raw === undefined ? '' : norm(meta, value)}
          onChange={(ev) => set(ev.target.value === '' ? undefined : ev.target.value)}
        >
          {e.unsetLabel !== undefined && <option value="">{e.unsetLabel}</option>}
          {e.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
      break;
    case 'boolean':
      control = (
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          onChange={(ev) => set(ev.target.checked)}
        />
      );
      break;
    case 'tristate':
      control = (
        <select
          id={id}
          value={raw === undefined ? '' : String(raw)}
          onChange={(ev) => set(ev.target.value === '' ? undefined : ev.target.value === 'true')}
        >
          <option value="">{e.unsetLabel}</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      );
      break;
    case 'number':
      control = (
        <NumberInput
          id={id}
          name={meta.name}
          value={typeof shown === 'number' ? shown : 0}
          range={range}
          revision={revision}
          onCommit={set}
          unit={e.unit}
        />
      );
      break;
    case 'nullable-number': {
      // Off is null, written or the schema's default (Flink: no interval, no checkpoints), or
      // for a knob whose off is its absence (offIs 'unset'), undefined.
      const offValue = e.offIs === 'unset' ? undefined : null;
      const off = shown === offValue;
      // Turned on again: the last number it had in the undo history, else the editor's own.
      const turnOn = () => {
        const last = lastNumberIn(
          lab.app.getState().past.map((step) => step.scenario),
          meta.path,
        );
        // The notice already says the value ("Set … to 2500 ms"): the note says why that one.
        if (last !== undefined) a.setKnob(meta.path, last, 'its last value');
        else a.setKnob(meta.path, e.onValue, e.onWhy);
      };
      control = (
        <span className="field">
          <label className="field">
            {/* Named with its knob: read alone, "off" said nothing about what it turns off. */}
            <input
              type="checkbox"
              checked={off}
              aria-label={`${meta.name}: ${e.offLabel}`}
              onChange={(ev) => (ev.target.checked ? set(offValue) : turnOn())}
            />
            <span aria-hidden="true">{e.offLabel}</span>
          </label>
          {off ? (
            <input
              id={id}
              type="text"
              value=""
              disabled
              placeholder={e.offLabel}
              style={{ width: '8.5em' }}
            />
          ) : (
            <NumberInput
              id={id}
              name={meta.name}
              value={typeof shown === 'number' ? shown : e.onValue}
              range={range}
              revision={revision}
              onCommit={set}
              unit={e.unit}
            />
          )}
        </span>
      );
      break;
    }
    case 'number-list':
      control = (
        <input
          id={id}
          type="text"
          inputMode="numeric"
          key={`${Array.isArray(shown) ? shown.join(',') : String(shown)}|${revisionKey}`}
          defaultValue={Array.isArray(shown) ? shown.join(', ') : ''}
          placeholder={`none · e.g. 10, 10, 400000 (${e.unit})`}
          style={{ width: '100%' }}
          onBlur={(ev) => {
            // Not a number → NaN in the list: validation refuses it naming the element.
            const v = ev.target.value.trim();
            const next = v === '' ? undefined : v.split(/[\s,]+/).map(Number);
            if (JSON.stringify(next) !== JSON.stringify(shown)) set(next);
          }}
          onKeyDown={(ev) => ev.key === 'Enter' && (ev.target as HTMLInputElement).blur()}
        />
      );
      break;
    case 'key':
      control = (
        <KeyControl
          id={id}
          name={meta.name}
          value={shown}
          options={e.options}
          columns={e.columns}
          onSet={set}
        />
      );
      break;
    case 'text':
      control = (
        <input
          id={id}
          type="text"
          key={`${String(shown)}|${revisionKey}`}
          defaultValue={typeof shown === 'string' ? shown : ''}
          placeholder={e.nullable ? 'none' : 'unset'}
          style={{ width: '100%' }}
          onBlur={(ev) => {
            const v = ev.target.value.trim();
            const next = v === '' ? (e.nullable ? null : undefined) : v;
            if (next !== shown) set(next);
          }}
          onKeyDown={(ev) => ev.key === 'Enter' && (ev.target as HTMLInputElement).blur()}
        />
      );
      break;
  }
  return (
    <div
      className="knob-row"
      data-testid={testIds.knob}
      data-knob={meta.path}
      data-refused={refused.length > 0 || undefined}
    >
      <label htmlFor={id} title={`${meta.what} Default: ${meta.realDefault}.`}>
        {/* A long name wraps before a dot in its column, not under the field (knobs.spec). */}
        <code>
          <Breakable text={meta.name} />
        </code>
        {differs && (
          <span
            className="changed"
            title={`The ${claim} recipe sets ${formatKnobValue(meta, preset)}`}
          >
            {' '}
            ✎ not the {claim} recipe ({formatKnobValue(meta, preset)})
          </span>
        )}
        {raw === undefined && meta.defaultFor && (
          <span className="muted" data-testid={testIds.knobUnset}>
            {' '}
            {UNSET_DEFAULT_NOTE}
          </span>
        )}
      </label>
      {control}
      <button
        type="button"
        aria-expanded={help}
        aria-label={`About ${meta.name}`}
        title={`About ${meta.name}`}
        onClick={() => setHelp(!help)}
      >
        <Icon name="info" />
      </button>
      {refused.length > 0 && (
        // The status line lists every issue; the row says which one is its own (no second alert).
        <span className="field" style={{ gridColumn: '1 / -1' }}>
          <span className="field-error knob-error" data-testid={testIds.knobError}>
            Refused here: {refused.join('; ')}
          </span>
        </span>
      )}
      {help && (
        <div className="knob-help" role="note">
          <p>{meta.what}</p>
          <p>
            <b>{meta.system}</b> · real default: <code>{meta.realDefault}</code>
            {meta.note ? ` · ${meta.note}` : ''}
          </p>
          <p className="muted">
            In a scenario file and sim --compare: <code>{meta.path}</code>
          </p>
          {meta.doc ? (
            <p>
              <a href={meta.doc} target="_blank" rel="noreferrer noopener">
                Official documentation ↗
              </a>
            </p>
          ) : (
            <p className="muted">A simulator knob: how the application or the model behaves.</p>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * A number knob, typed as text so that what was typed can be judged (the seed field's rule, with
 * the knob's range read from the scenario schema): a value outside the range — negative, a
 * fraction for a whole number, too large — is refused with the reason beside the field and not
 * applied. The field always shows the scenario's current value: any change of the scenario (an
 * edit, undo, redo, a preset) replaces what was typed and clears the error.
 */
function NumberInput({
  id,
  name,
  value,
  range,
  unit,
  revision,
  onCommit,
}: {
  id: string;
  name: string;
  value: number;
  range: NumberRange;
  unit?: string;
  /** The scenario as written: when it changes, the field shows `value` again. */
  revision: unknown;
  onCommit: (v: number) => void;
}) {
  const judge = (text: string) => parseNumberIn(text, range, name);
  const { problem, input } = useNumberDraft(value, judge, onCommit, revision);
  return (
    <span className="field">
      <input
        id={id}
        type="text"
        inputMode={range.int ? 'numeric' : 'decimal'}
        autoComplete="off"
        spellCheck={false}
        style={{ width: '8.5em' }}
        {...input}
        aria-describedby={problem !== null ? `${id}-error` : undefined}
      />
      {unit && <span className="muted">{unit}</span>}
      {problem !== null && (
        <span
          className="field-error knob-error"
          id={`${id}-error`}
          role="alert"
          data-testid={testIds.knobError}
        >
          Not applied: {problem}. {name} is {rangeRule(range, unit)}; the run keeps{' '}
          {formatBound(value)}.
        </span>
      )}
    </span>
  );
}
