/** The shape of one editable knob: where it lives, how it is edited, what it does (./knobs.ts). */
import type { Scenario, ScenarioInput } from '../../engine';
import type { KnobSetting } from '../../scenarios';

/** Where a knob lives in the pipeline. */
export type KnobGroup = 'producer' | 'broker' | 'processor' | 'sink' | 'reader' | 'network';

/** How a knob is edited. */
type KnobEditor =
  /** One of `options`; with `unsetLabel`, also unset (undefined: the default rule applies). */
  | { type: 'enum'; options: readonly string[]; unsetLabel?: string }
  | { type: 'boolean' }
  /** Unset (the default rule applies), true or false. */
  | { type: 'tristate'; unsetLabel: string }
  | { type: 'number'; min: number; max: number; unit?: 'ms' | 'records' | 'bytes' }
  /**
   * A number, or off: null, or with `offIs: 'unset'` the knob left out (undefined: Spark's
   * `maxOffsetsPerTrigger`, whose schema takes no null). Turned back on, it takes the last number
   * it had in the undo history, else `onValue` — and the notice says why (`onWhy`).
   */
  | {
      type: 'nullable-number';
      min: number;
      max: number;
      unit?: 'ms' | 'records';
      offLabel: string;
      offIs?: 'unset';
      onValue: number;
      onWhy: string;
    }
  /** A name; empty = unset (undefined) or null when `nullable`. */
  | { type: 'text'; nullable?: boolean }
  /** A list of numbers, written comma-separated; empty = unset. */
  | { type: 'number-list'; unit: 'ms' }
  /**
   * A key: one of `options` (an identifying column), or a tuple of the content `columns` (at
   * least one), the rules in ./knobsKey.ts.
   */
  | { type: 'key'; options: readonly string[]; columns: readonly string[] };

/** One editable knob. */
export interface KnobMeta {
  /** Dotted path, e.g. `producer.enable.idempotence`, `readers.0.isolation.level`. */
  path: string;
  /** The real name as the system spells it (`enable.idempotence`). */
  name: string;
  group: KnobGroup;
  /** System it belongs to, for the tooltip ("Kafka producer", "PostgreSQL", "simulator"). */
  system: string;
  editor: KnobEditor;
  /** What it does, in one or two sentences. */
  what: string;
  /** The real system's default, as text. */
  realDefault: string;
  /** Anything our model does differently (a different starting value, a simplification). */
  note?: string;
  /** Official documentation, or null for simulator-only knobs. */
  doc: string | null;
  /** Whether the knob exists for this scenario's pipeline. */
  applies: (s: Scenario) => boolean;
  /**
   * The value in effect when the scenario leaves the knob unset and the default depends on the
   * pipeline (a Kafka sink's transaction.timeout.ms: 1 h under Flink, 60 s otherwise).
   */
  defaultFor?: (s: Scenario) => unknown;
  /**
   * Other knobs that setting this one to `value` must change for the scenario to stay valid (an
   * XA sink needs statement retries 0): set in the same, single undoable edit — as a guarantee's
   * knobs are ({@link KnobSetting}) — and named in the notice, each `why` ending it.
   * Only what conflicts is listed: an empty list when nothing has to change.
   */
  alsoSets?: (value: unknown, s: ScenarioInput) => KnobSetting[];
}
