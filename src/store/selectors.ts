/**
 * Selectors of the lab's `app` store, each memoised per scenario object so a selector returning
 * it is stable (zustand v5 stable selector outputs). They parse with zod once it is in hand;
 * before that — a first visit or an embed of one of our presets — they answer from the preset's
 * generated data (src/views/run/validationOnDemand.ts).
 */
import type { Guarantee, Issue, ParseResult } from '../engine';
import { claimOf } from '../scenarios/claim';
import type { KnobSetting } from '../scenarios';
import { parseInHand } from '../views/run/validationOnDemand';
import { claimDifferencesInHand } from './guaranteeSwitch';
import type { LabState } from './labState';

const parseCache = new WeakMap<object, ParseResult>();

/**
 * While a scenario waits for the validation to load (the store's status is `validating`): no
 * issues to show yet, and no scenario to read.
 */
export const PARSE_PENDING: ParseResult = { ok: false, issues: [] };

/**
 * The current scenario validated (defaults applied) or its issues. Memoised per scenario object,
 * so a selector returning it is stable (zustand v5 stable selector outputs).
 */
export function selectParse(s: Pick<LabState, 'scenario'>): ParseResult {
  let r = parseCache.get(s.scenario);
  if (!r) {
    r = parseInHand(s.scenario);
    if (r === undefined) return PARSE_PENDING;
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
    const inHand = claimDifferencesInHand(s.scenario);
    // A scenario waiting for the validation: asked again once it is in.
    if (inHand === undefined) return NO_DIFFERENCES;
    d = inHand as KnobSetting[];
    recipeCache.set(s.scenario, d);
  }
  return d;
}
const NO_DIFFERENCES: KnobSetting[] = [];
