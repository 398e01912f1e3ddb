/**
 * A scenario's pinned fault atlas (`expect.atlas`, docs/format.md#the-fault-atlas-in-expect): the atlas `--explore`
 * runs, compared with the pin, so that "this configuration survives every single fault" is pinned
 * beside the run's totals and checked by the same command (`--check`, `delivery-lab check`),
 * not by a second CI line. Imported only by those (the runner's `--check` loads it as an optional
 * part: a plain run evaluates no atlas).
 */
import {
  BATCH_PLACEMENT_KINDS,
  breaksOf,
  OUTCOMES,
  PLACEMENT_KINDS,
  type AtlasExpect,
  type Expect,
  type ExpectMismatch,
  type Scenario,
} from '../engine';
import { exploreReport, type ExploreReport } from './explore';
import { exploreBatchReport } from './exploreBatch';
import { expectCheck, scenarioKind } from './scenarioEngine';

/** The atlas's report for the pin's kinds and depth (on the scenario's engine), or why none runs. */
function pinnedAtlas(s: Scenario, pin: AtlasExpect): ExploreReport | { refused: string } {
  const depth = pin.depth ?? 1;
  try {
    if (scenarioKind(s) === 'batch') {
      // The kinds are the engine's: the scenario's validation refused any other.
      const kinds = BATCH_PLACEMENT_KINDS.filter((k) => pin.kinds?.includes(k) ?? true);
      return exploreBatchReport(s, depth, kinds, undefined);
    }
    const kinds = PLACEMENT_KINDS.filter((k) => pin.kinds?.includes(k) ?? true);
    return exploreReport(s, { depth, kinds }, undefined).report;
  } catch (e) {
    // Pairs past their bound are refused with the reason (as `--explore --depth 2` says it).
    const msg = (e as Error).message;
    if (/pairs are|more than the bound|the bound of runs/.test(msg)) return { refused: msg };
    throw e;
  }
}

/** Differences between the pin and the scenario's atlas, at `atlas.breaks` and `atlas.outcomes.<outcome>`. */
export function atlasMismatches(s: Scenario, pin: AtlasExpect): ExpectMismatch[] {
  const report = pinnedAtlas(s, pin);
  if ('refused' in report)
    return [{ path: 'atlas.depth', expected: 'an atlas within its bound', actual: report.refused }];
  const out: ExpectMismatch[] = [];
  const breaks = breaksOf(report.outcomes);
  const c = report.counterexample;
  // The earliest that breaks it, as `--explore` gives it first (its fault(s) in words).
  const note = c ? `the earliest: ${c.labels.join(', then ')}` : undefined;
  if (pin.breaks !== undefined && pin.breaks !== breaks)
    out.push({
      path: 'atlas.breaks',
      expected: pin.breaks,
      actual: breaks,
      ...(note ? { note } : {}),
    });
  for (const o of OUTCOMES) {
    const want = pin.outcomes?.[o];
    if (want !== undefined && want !== report.outcomes[o])
      out.push({ path: `atlas.outcomes.${o}`, expected: want, actual: report.outcomes[o] });
  }
  return out;
}

/**
 * The scenario against its whole pin — its run on its engine, then its atlas if the pin has one —
 * with its own faults that never fired in that run (as the text report flags them): what `check`
 * prints for a scenario file, a lesson's step or a page's embed.
 * @param quiet - ids of faults that never fire on purpose (a library preset's `neverFires`).
 */
export function pinCheck(
  s: Scenario,
  expect: Expect,
  quiet: readonly string[] = [],
): { diff: ExpectMismatch[]; unfired: string[] } {
  const run = expectCheck(s, expect, quiet);
  return {
    diff: [...run.diff, ...(expect.atlas ? atlasMismatches(s, expect.atlas) : [])],
    unfired: run.unfired,
  };
}
