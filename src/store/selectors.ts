/**
 * Selectors of the lab's `app` store, each memoised per scenario object so a selector returning
 * it is stable (zustand v5 stable selector outputs).
 */
import { parseScenario, type Guarantee, type Issue, type ParseResult } from '../engine';
import { claimOf, recipeDifferences, type KnobSetting } from '../scenarios';
import type { LabState } from './labState';

const parseCache = new WeakMap<object, ParseResult>();

/**
 * The current scenario validated (defaults applied) or its issues. Memoised per scenario object,
 * so a selector returning it is stable (zustand v5 stable selector outputs).
 */
export function selectParse(s: Pick<LabState, 'scenario'>): ParseResult {
  let r = parseCache.get(s.scenario);
  if (!r) {
    r = parseScenario(s.scenario);
    parseCache.set(s.scenario, r);
  }
  return r;
}

/** Validation issues of the current scenario (empty when valid). */
export function selectIssues(s: Pick<LabState, 'scenario'>): Issue[] {
  const r = selectParse(s);
  return r.ok ? NO_ISSUES : r.issues;
}
const NO_ISSUES: Issue[] = [];

/**
 * The guarantee the scenario claims: the one its verdict checks, and so the one the guarantee
 * switch shows as chosen (a scenario without a claim has the schema's default).
 */
export function selectClaim(s: Pick<LabState, 'scenario'>): Guarantee {
  return claimOf(s.scenario);
}

const recipeCache = new WeakMap<object, KnobSetting[]>();

/**
 * The knobs of the claimed guarantee's recipe that the scenario sets otherwise (none: its knobs
 * follow the recipe). Cached per scenario: the same array until the scenario changes.
 */
export function selectRecipeDifferences(s: Pick<LabState, 'scenario'>): KnobSetting[] {
  let d = recipeCache.get(s.scenario);
  if (d === undefined) {
    d = recipeDifferences(s.scenario, claimOf(s.scenario));
    recipeCache.set(s.scenario, d);
  }
  return d;
}
