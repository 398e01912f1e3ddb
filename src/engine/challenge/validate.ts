/**
 * Turning untrusted input (a shipped file, a lesson's step, storage) into a {@link Challenge}: the
 * scenario's machinery — forward migration, the schema, issues in plain words naming the field —
 * then what the schema alone cannot check: the solution keeps the challenge's own rules, the hints
 * unlock in order, an inline start is a valid scenario. Nothing here throws on bad input.
 */
import { migrateFormat } from '../scenario/migrate';
import { keysAt } from '../scenario/schemaKeys';
import { parseScenario, REPORT_INPUT, schemaIssues, type Issue } from '../scenario/validate';
import { CHALLENGE_VERSION, ChallengeSchema, type Challenge } from './schema';
import { lockedBy } from './rules';

/** The result of {@link parseChallenge}. */
export type ChallengeParse = { ok: true; challenge: Challenge } | { ok: false; issues: Issue[] };

/** `steps[n]` migrates a challenge of version n to n+1 (none yet: version 1 is the first). */
const CHALLENGE_STEPS = {};

/** Validate any value as a challenge (see the module comment). */
export function parseChallenge(raw: unknown): ChallengeParse {
  const migrated = migrateFormat(raw, {
    noun: 'a challenge',
    current: CHALLENGE_VERSION,
    steps: CHALLENGE_STEPS,
  });
  if (!migrated.ok) return migrated;
  const parsed = ChallengeSchema.safeParse(migrated.value, REPORT_INPUT);
  if (!parsed.success)
    return {
      ok: false,
      issues: schemaIssues(parsed.error.issues, (path) =>
        keysAt(ChallengeSchema, migrated.value, path),
      ),
    };
  const issues = semanticIssues(parsed.data);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, challenge: parsed.data };
}

function semanticIssues(c: Challenge): Issue[] {
  const issues: Issue[] = [];
  const { faults, knobs } = c.allow;
  if (faults.max === 0 && knobs.max === 0)
    issues.push({
      path: 'allow',
      message: 'allows no change at all: give allow.faults.max or allow.knobs.max above 0',
    });
  if (c.solution.faults.length > faults.max)
    issues.push({
      path: 'solution.faults',
      message: `adds ${c.solution.faults.length} faults; the challenge allows at most ${faults.max}`,
    });
  c.solution.faults.forEach((f, i) => {
    if (faults.kinds && !faults.kinds.includes(f.kind))
      issues.push({
        path: `solution.faults.${i}.kind`,
        message: `"${f.kind}" is not among the kinds allowed (${faults.kinds.join(', ')})`,
      });
  });
  if (c.solution.knobs.length > knobs.max)
    issues.push({
      path: 'solution.knobs',
      message: `sets ${c.solution.knobs.length} knobs; the challenge allows at most ${knobs.max}`,
    });
  c.solution.knobs.forEach((k, i) => {
    const lock = lockedBy(k.path, knobs.locked);
    if (lock !== null)
      issues.push({
        path: `solution.knobs.${i}.path`,
        message: `${k.path} is locked by the challenge (allow.knobs.locked: ${lock})`,
      });
  });
  c.hints.forEach((h, i) => {
    const before = c.hints[i - 1];
    if (before && h.after <= before.after)
      issues.push({
        path: `hints.${i}.after`,
        message: `unlocks after ${h.after} attempts, not after the hint before it (${before.after}): hints come in order`,
      });
  });
  if ('scenario' in c.start) {
    const r = parseScenario(c.start.scenario);
    if (!r.ok)
      for (const i of r.issues)
        issues.push({
          path: i.path ? `start.scenario.${i.path}` : 'start.scenario',
          message: i.message,
        });
  }
  return issues;
}
