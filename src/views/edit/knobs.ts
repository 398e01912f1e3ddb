/**
 * Every knob the dashboard lets you edit, as data: its path in the scenario (as `getKnob`/`setKnob`
 * address it), its real name, what it does, its real default, and the official page it comes from.
 * The texts follow the schema's TSDoc (src/engine/scenario/schema.ts) and the linked docs.
 *
 * `realDefault` is the system's own default; where our simulator starts from another value (three
 * brokers instead of one, …) `note` says so. Knobs that exist only in the simulator (how the
 * application uses the producer, when the consumer starts) say "simulator" instead of a link.
 */
import type { Scenario, ScenarioInput } from '../../engine';
import { getKnob, setKnob } from '../../scenarios';
import type { KnobMeta } from './knobTypes';
import { PRODUCER_KNOBS } from './knobsProducer';
import { BROKER_KNOBS } from './knobsBroker';
import { CONSUMER_KNOBS } from './knobsConsumer';
import { FLINK_SPARK_KNOBS } from './knobsFlinkSpark';
import { SINK_KNOBS } from './knobsSink';
import { READER_NETWORK_KNOBS } from './knobsReaderNetwork';

export type { KnobGroup, KnobMeta } from './knobTypes';

/** Said beside a knob left unset whose value in effect is the pipeline's default ({@link KnobMeta.defaultFor}). */
export const UNSET_DEFAULT_NOTE = 'unset: the default here';

/** The knob table, grouped by component in pipeline order. */
export const KNOBS: readonly KnobMeta[] = [
  ...PRODUCER_KNOBS,
  ...BROKER_KNOBS,
  ...CONSUMER_KNOBS,
  ...FLINK_SPARK_KNOBS,
  ...SINK_KNOBS,
  ...READER_NETWORK_KNOBS,
];

/** The knobs that exist for a scenario, in table order. */
export function knobsFor(s: Scenario): KnobMeta[] {
  return KNOBS.filter((k) => k.applies(s));
}

/** The knob at `path`, if the table has it. */
export function knobMeta(path: string): KnobMeta | undefined {
  return KNOBS.find((k) => k.path === path);
}

/**
 * The real default of the knob at `path` when `value` differs from it (what a configuration
 * import lists as the workload's, docs/cli.md), else null — the default's first word is its
 * value (`30000 (30 s)`, `all (since Kafka 3.0)`).
 */
export function realDefaultUnlike(path: string, value: unknown): string | null {
  const real = knobMeta(path)?.realDefault;
  if (real === undefined) return '—';
  return real.split(' ')[0] === String(value) ? null : real;
}

/**
 * One knob edit as the Knobs tab makes it: the knob set to `value`, with the knobs it brings along
 * ({@link KnobMeta.alsoSets}), and the notice for the status line ("Set JdbcSink.exactlyOnceSink (XA)
 * to true — and statement retries to 0, as Flink’s XA sink requires"). `note` (why this value) ends the notice.
 */
export function editKnob(
  s: ScenarioInput,
  path: string,
  value: unknown,
  note?: string,
): { scenario: ScenarioInput; notice: string } {
  const also = knobMeta(path)?.alsoSets?.(value, s) ?? [];
  let scenario = setKnob(s, path, value);
  for (const k of also) scenario = setKnob(scenario, k.path, k.value);
  const meta = knobMeta(path);
  // The real name, as the Knobs tab shows it (the path's prefix doubled "broker.broker…"), and the
  // component when two knobs share that name (a processor's and a reader's isolation.level).
  const shared = meta && KNOBS.some((k) => k !== meta && k.name === meta.name);
  const parts = [
    meta
      ? `Set ${meta.name}${shared ? ` of the ${meta.system}` : ''} to ${formatKnobValue(meta, value)}`
      : `Set ${path}`,
    ...(note ? [note] : []),
    ...also.map((k) => {
      const meta = knobMeta(k.path);
      return `and ${meta?.name ?? k.path} to ${formatKnobValue(meta, k.value)}, ${k.why}`;
    }),
  ];
  return { scenario, notice: parts.join(' — ') };
}

/**
 * The last number `path` had in the undo history (newest first), or undefined: what a knob that
 * can be off (a checkpoint interval) goes back to when it is turned on again.
 */
export function lastNumberIn(history: readonly unknown[], path: string): number | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const v = getKnob(history[i], path);
    if (typeof v === 'number') return v;
  }
  return undefined;
}

/** A knob value as shown: `all`, `true`, `30000 ms`, `off`, `(unset)`. */
export function formatKnobValue(meta: KnobMeta | undefined, value: unknown): string {
  if (value === undefined) {
    if (meta?.editor.type === 'tristate') return meta.editor.unsetLabel;
    if (meta?.editor.type === 'nullable-number' && meta.editor.offIs === 'unset')
      return meta.editor.offLabel;
    return '(unset)';
  }
  if (value === null)
    return meta?.editor.type === 'nullable-number' ? meta.editor.offLabel : 'null';
  if (meta?.path === 'producer.acks') return value === -1 || value === '-1' ? 'all' : String(value);
  if (
    typeof value === 'number' &&
    (meta?.editor.type === 'number' || meta?.editor.type === 'nullable-number') &&
    meta.editor.unit === 'ms'
  )
    return `${value} ms`;
  // A content tuple as the conflict target spells it: (time, amount).
  if (Array.isArray(value) && meta?.editor.type === 'key') return `(${value.join(', ')})`;
  if (Array.isArray(value))
    return `${value.join(', ')}${meta?.editor.type === 'number-list' ? ' ms' : ''}`;
  return String(value);
}
