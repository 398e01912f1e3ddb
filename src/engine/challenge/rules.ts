/**
 * What a student changed between the challenge's start and their attempt, and whether the
 * challenge allows it. Both scenarios are compared as the engine runs them (defaults applied), so a
 * knob written at its default is no change, and a change is counted once per configuration value
 * whose effect differs — whether it came from the Knobs tab, the guarantee switch or a file.
 */
import type { FaultSpec, Scenario } from '../scenario/schema';
import type { Challenge } from './schema';

/** The parts of a scenario whose values are knobs (a student may change them if allowed). */
const KNOB_SECTIONS = ['stopAtMs', 'network', 'producer', 'broker', 'processor', 'sink', 'readers'];
/** The parts that make the exercise itself: never the student's to change. */
const FIXED_SECTIONS = ['workload', 'seed'] as const;

/** What an attempt changed. */
export interface AttemptChanges {
  /** Dotted paths of the knobs whose value differs (`producer.acks`, `readers.0.isolation.level`). */
  knobs: string[];
  /** Fixed parts that differ (`workload`, `seed`). */
  fixed: string[];
  /** Indices (from 1) of the start's own faults that were removed or changed. */
  startFaultsChanged: number[];
  /** The faults the student added after the start's own. */
  added: FaultSpec[];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether a value is walked into (an object, or a list of objects such as `readers`). */
function isBranch(v: unknown): boolean {
  return isPlainObject(v) || (Array.isArray(v) && v.some(isPlainObject));
}

/** Leaf paths where `a` and `b` differ (a leaf: a scalar, or a list of scalars). */
function differingLeaves(a: unknown, b: unknown, path: string, out: string[]): void {
  if (isBranch(a) || isBranch(b)) {
    const ao = (isBranch(a) ? a : {}) as Record<string, unknown>;
    const bo = (isBranch(b) ? b : {}) as Record<string, unknown>;
    const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
    for (const k of keys) differingLeaves(ao[k], bo[k], path ? `${path}.${k}` : k, out);
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push(path);
}

/** What `attempt` changed from `start` (both validated scenarios). */
export function attemptChanges(start: Scenario, attempt: Scenario): AttemptChanges {
  const knobs: string[] = [];
  const s = start as unknown as Record<string, unknown>;
  const a = attempt as unknown as Record<string, unknown>;
  for (const section of KNOB_SECTIONS) differingLeaves(s[section], a[section], section, knobs);
  const fixed = FIXED_SECTIONS.filter((k) => JSON.stringify(s[k]) !== JSON.stringify(a[k]));
  const startFaultsChanged: number[] = [];
  start.faults.forEach((f, i) => {
    if (JSON.stringify(f) !== JSON.stringify(attempt.faults[i])) startFaultsChanged.push(i + 1);
  });
  return { knobs, fixed, startFaultsChanged, added: attempt.faults.slice(start.faults.length) };
}

/** The entry of `locked` that locks `path` (itself, or a prefix of it), or null. */
export function lockedBy(path: string, locked: readonly string[]): string | null {
  return locked.find((l) => path === l || path.startsWith(`${l}.`)) ?? null;
}

/**
 * Why the challenge refuses an attempt, one sentence per rule broken (empty: the attempt keeps
 * every rule). The sentences name what to undo.
 */
export function ruleIssues(c: Challenge, changes: AttemptChanges): string[] {
  const out: string[] = [];
  const { faults, knobs } = c.allow;
  for (const f of changes.fixed)
    out.push(`the ${f} changed: it is part of the challenge, put it back as it was`);
  if (changes.startFaultsChanged.length > 0)
    out.push(
      `the challenge's own fault${changes.startFaultsChanged.length > 1 ? 's' : ''} ${changes.startFaultsChanged.join(', ')} changed or went: they stay as they are`,
    );
  if (changes.added.length > faults.max)
    out.push(
      faults.max === 0
        ? `${changes.added.length} fault${changes.added.length > 1 ? 's' : ''} added: this challenge allows none`
        : `${changes.added.length} faults added: at most ${faults.max}`,
    );
  const kinds = faults.kinds;
  if (kinds)
    for (const f of changes.added)
      if (!kinds.includes(f.kind))
        out.push(`a fault of kind ${f.kind}: this challenge allows only ${kinds.join(', ')}`);
  for (const path of changes.knobs) {
    const lock = lockedBy(path, knobs.locked);
    if (lock !== null) out.push(`${path} changed: the challenge keeps it as it is`);
  }
  if (changes.knobs.length > knobs.max)
    out.push(
      knobs.max === 0
        ? `${changes.knobs.length} knob${changes.knobs.length > 1 ? 's' : ''} changed (${changes.knobs.join(', ')}): this challenge allows none`
        : `${changes.knobs.length} knobs changed (${changes.knobs.join(', ')}): at most ${knobs.max}`,
    );
  return out;
}
