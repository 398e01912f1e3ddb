/**
 * A challenge's scenarios: its start (a library preset, stripped of its faults and with knobs set
 * if it says so, or its inline scenario) and its reference solution (the start with the
 * solution's knobs set and faults added) — as a student would make them on the page.
 */
import {
  attemptChanges,
  parseChallenge,
  parseScenario,
  type Challenge,
  type Issue,
  type Scenario,
  type ScenarioInput,
} from '../../engine';
import { setKnob } from '../guarantees';
import { getKnob } from '../knobPaths';
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
function startScenario(
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

/**
 * The knobs a challenge names, checked against its start: each knob its solution sets is one the
 * start has, at a value it takes, and each `allow.knobs.locked` entry names a knob of the start or
 * a section of them (`processor`). The schema checks only that each is a dotted path, so a
 * misspelt lock (`procesor.commit`) locked nothing and a misspelt solution knob was shown to the
 * student as the way to solve it (docs/challenges.md, "The format": "same paths as the Knobs tab").
 */
export function knobIssues(c: Challenge, start: ScenarioInput): Issue[] {
  const base = parseScenario(start);
  if (!base.ok) return [];
  const issues: Issue[] = [];
  c.solution.knobs.forEach((k, i) => {
    const r = parseScenario(setKnob(start, k.path, k.value));
    if (r.ok) return;
    const unknown = r.issues.find((x) => x.message.startsWith('unknown key'));
    issues.push(
      unknown
        ? {
            path: `solution.knobs.${i}.path`,
            message: `${k.path}: no such knob in the start (${unknown.path}: ${unknown.message})`,
          }
        : {
            path: `solution.knobs.${i}.value`,
            message: `${k.path} = ${JSON.stringify(k.value)}: ${r.issues.map((x) => `${x.path}: ${x.message}`).join('; ')}`,
          },
    );
  });
  c.allow.knobs.locked.forEach((path, i) => {
    if (getKnob(base.scenario, path) !== undefined) return;
    const r = parseScenario(setKnob(start, path, null));
    const unknown = r.ok ? undefined : r.issues.find((x) => x.message.startsWith('unknown key'));
    if (unknown)
      issues.push({
        path: `allow.knobs.locked.${i}`,
        message: `${path} names no knob of the start, so it would lock nothing (${unknown.path}: ${unknown.message})`,
      });
  });
  return issues;
}

/** The result of {@link checkChallenge}: the challenge and its start as written, or the issues. */
export type ChallengeCheck =
  { ok: true; challenge: Challenge; start: ScenarioInput } | { ok: false; issues: Issue[] };

/**
 * Validate any value as a challenge the lab can open — a shipped one, a file, a link: the format
 * (`parseChallenge`), its start (a preset the library has, or a valid scenario) and the knobs its
 * solution and locks name. One rule for the library, the page's Open… and `delivery-lab check`.
 */
export function checkChallenge(raw: unknown): ChallengeCheck {
  const parsed = parseChallenge(raw);
  if (!parsed.ok) return parsed;
  const c = parsed.challenge;
  const start = startScenario(c);
  if (!start.ok) return start;
  const input = startInput(c);
  if (!input.ok) return input;
  const knobs = knobIssues(c, input.input);
  return knobs.length > 0
    ? { ok: false, issues: knobs }
    : { ok: true, challenge: c, start: input.input };
}
