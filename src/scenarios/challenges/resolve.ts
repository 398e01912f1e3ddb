/**
 * A challenge's scenarios: its start (a library preset, stripped of its faults and with knobs set
 * if it says so, or its inline scenario) and its reference solution (the start with the
 * solution's knobs set and faults added) — as a student would make them on the page.
 */
import {
  attemptChanges,
  parseScenario,
  type Challenge,
  type Issue,
  type Scenario,
  type ScenarioInput,
} from '../../engine';
import { setKnob } from '../guarantees';
import { findPreset } from '../index';

/** The start as written (defaults not applied), or why it cannot be made. */
export function startInput(
  c: Challenge,
): { ok: true; input: ScenarioInput } | { ok: false; issues: Issue[] } {
  if ('scenario' in c.start)
    return { ok: true, input: structuredClone(c.start.scenario) as ScenarioInput };
  const found = findPreset(c.start.preset);
  if (!found)
    return {
      ok: false,
      issues: [{ path: 'start.preset', message: `no preset "${c.start.preset}" in the library` }],
    };
  let input: ScenarioInput = structuredClone(found.variant.scenario);
  // The start is the student's workspace: the preset's pinned outcome is no longer its outcome.
  delete input.expect;
  input.name = c.title;
  if (c.start.withoutFaults) input.faults = [];
  for (const k of c.start.set) input = setKnob(input, k.path, k.value);
  return { ok: true, input };
}

/** The start validated, or its issues (each path under `start`). */
export function startScenario(
  c: Challenge,
): { ok: true; scenario: Scenario } | { ok: false; issues: Issue[] } {
  const s = startInput(c);
  if (!s.ok) return s;
  const r = parseScenario(s.input);
  return r.ok
    ? r
    : { ok: false, issues: r.issues.map((i) => ({ path: `start.${i.path}`, message: i.message })) };
}

/** The minimal solution as a scenario: the start, the solution's knobs set, its faults added. */
export function solutionInput(c: Challenge, start: ScenarioInput): ScenarioInput {
  let input = structuredClone(start);
  for (const k of c.solution.knobs) input = setKnob(input, k.path, k.value);
  return { ...input, faults: [...(input.faults ?? []), ...c.solution.faults] };
}

/**
 * Whether `scenario` is a student's attempt at `c` from `start` (both as written): the same
 * workload and seed, the start's own faults kept, and something changed. A reload of the page on
 * `?challenge=` keeps such a scenario (the workspace the page restored) instead of the start, so
 * the student finds their pipeline as they left it.
 */
export function continuesAttempt(start: ScenarioInput, scenario: ScenarioInput): boolean {
  const s = parseScenario(start);
  const a = parseScenario(scenario);
  if (!s.ok || !a.ok) return false;
  const changes = attemptChanges(s.scenario, a.scenario);
  if (changes.fixed.length > 0 || changes.startFaultsChanged.length > 0) return false;
  return changes.knobs.length > 0 || changes.added.length > 0;
}
