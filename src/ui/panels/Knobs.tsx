import { useId, useMemo, useState } from 'react';
import type { Scenario } from '../../engine';
import { getKnob, guaranteeKnobs } from '../../scenarios';
import { selectParse, type LabState } from '../../store/labStore';
import { useActions, useLab } from '../../store/LabContext';
import { formatKnobValue, knobsFor, type KnobGroup, type KnobMeta } from '../../views/knobs';
import { Icon } from '../Icon';
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

/** Normalise a knob value for comparison and for a select's value. */
function norm(meta: KnobMeta, v: unknown): string {
  if (meta.path === 'producer.acks') return v === -1 || v === '-1' ? 'all' : String(v);
  return v === undefined ? '' : v === null ? 'null' : String(v);
}

/**
 * Every knob of the scenario's pipeline under its real name, editable; the (i) button shows what it does, its
 * real default and the official doc. A knob differing from the claimed guarantee's bundle is
 * marked — that is what turns the label to "custom".
 */
export function Knobs() {
  const parsed = useLab(selectParse);
  const view = useLab(selectView);
  const scenario = useLab(selectScenario);
  const effective: Scenario | undefined = parsed.ok ? parsed.scenario : view?.scenario;
  const preset = useMemo(() => {
    if (!effective) return new Map<string, unknown>();
    const g = effective.claim;
    return new Map(
      guaranteeKnobs(g, effective.processor.type, scenario).map((k) => [k.path, k.value]),
    );
  }, [effective, scenario]);
  if (!effective) return null;
  const knobs = knobsFor(effective);
  return (
    <div className="scroll-panel" data-testid={testIds.knobs} tabIndex={0}>
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
                value={getKnob(effective, k.path)}
                preset={preset.has(k.path) ? preset.get(k.path) : NOT_IN_PRESET}
                claim={effective.claim}
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
  preset,
  claim,
}: {
  meta: KnobMeta;
  raw: unknown;
  value: unknown;
  preset: unknown;
  claim: string;
}) {
  const a = useActions();
  const id = useId();
  const [help, setHelp] = useState(false);
  const differs =
    preset !== NOT_IN_PRESET &&
    norm(meta, preset) !== norm(meta, meta.editor.type === 'tristate' ? raw : value);
  const set = (v: unknown) => a.setKnob(meta.path, v);
  const e = meta.editor;
  let control;
  switch (e.type) {
    case 'enum':
      control = (
        <select id={id} value={norm(meta, value)} onChange={(ev) => set(ev.target.value)}>
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
          value={typeof value === 'number' ? value : 0}
          min={e.min}
          max={e.max}
          onCommit={set}
          unit={e.unit}
        />
      );
      break;
    case 'nullable-number':
      control = (
        <span className="field">
          <label className="field">
            <input
              type="checkbox"
              checked={value === null}
              onChange={(ev) => set(ev.target.checked ? null : 1000)}
            />
            <span>{e.offLabel}</span>
          </label>
          {value !== null && (
            <NumberInput
              id={id}
              value={typeof value === 'number' ? value : 1000}
              min={e.min}
              max={e.max}
              onCommit={set}
              unit={e.unit}
            />
          )}
        </span>
      );
      break;
    case 'text':
      control = (
        <input
          id={id}
          type="text"
          key={String(value)}
          defaultValue={typeof value === 'string' ? value : ''}
          placeholder={e.nullable ? 'none' : 'unset'}
          style={{ width: '100%' }}
          onBlur={(ev) => {
            const v = ev.target.value.trim();
            const next = v === '' ? (e.nullable ? null : undefined) : v;
            if (next !== value) set(next);
          }}
          onKeyDown={(ev) => ev.key === 'Enter' && (ev.target as HTMLInputElement).blur()}
        />
      );
      break;
  }
  return (
    <div className="knob-row" data-testid={testIds.knob} data-knob={meta.path}>
      <label htmlFor={id} title={`${meta.what} Default: ${meta.realDefault}.`}>
        <code>{meta.name}</code>
        {differs && (
          <span
            className="changed"
            title={`The ${claim} bundle sets ${formatKnobValue(meta, preset)}`}
          >
            {' '}
            ✎ not the {claim} value ({formatKnobValue(meta, preset)})
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
      {help && (
        <div className="knob-help" role="note">
          <p>{meta.what}</p>
          <p>
            <b>{meta.system}</b> · real default: <code>{meta.realDefault}</code>
            {meta.note ? ` · ${meta.note}` : ''}
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

function NumberInput({
  id,
  value,
  min,
  max,
  unit,
  onCommit,
}: {
  id: string;
  value: number;
  min: number;
  max: number;
  unit?: string;
  onCommit: (v: number) => void;
}) {
  return (
    <span className="field">
      <input
        id={id}
        type="number"
        key={value}
        defaultValue={value}
        min={min}
        max={max}
        step={1}
        style={{ width: '8.5em' }}
        onBlur={(ev) => {
          const n = Number(ev.target.value);
          if (Number.isFinite(n) && n !== value)
            onCommit(Math.min(max, Math.max(min, Math.round(n))));
        }}
        onKeyDown={(ev) => ev.key === 'Enter' && (ev.target as HTMLInputElement).blur()}
      />
      {unit && <span className="muted">{unit}</span>}
    </span>
  );
}
