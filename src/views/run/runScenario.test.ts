/**
 * The page's runs (runScenario.ts's computeRunViewLazily): an untouched preset is validated
 * without zod — its parse comes generated (src/scenarios/parsed/) — and gives the very run
 * computeRun.ts's zod path gives; an edited one, or a bad one, goes through zod as before.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as validate from '../../engine/scenario/validate';
import { findPreset } from '../../scenarios';
import { computeRunView } from './computeRun';
import { traceHashOfView } from './hash';
import { untouchedPreset } from './parseForRun';
import { explain } from '../../engine/explain';
import { computeRunViewLazily } from './runScenario';
import { simulateUnexplained } from '../../engine/simulateUnexplained';
import { parseScenario } from '../../engine';

vi.mock('../../engine/scenario/validate', { spy: true });

const input = () => structuredClone(findPreset('lost-ack-retry/acks-1')!.variant.scenario);
const hashOf = (r: ReturnType<typeof computeRunView>) => (r.ok ? traceHashOfView(r.view) : r);

describe('computeRunViewLazily', () => {
  beforeEach(() => vi.mocked(validate.parseScenario).mockClear());

  it('an untouched preset: no zod parse, the same run as the zod path', async () => {
    expect(untouchedPreset(input())).toBe('lost-ack-retry/acks-1');
    const lazily = await computeRunViewLazily(input(), () => {}, undefined, explain);
    expect(validate.parseScenario).not.toHaveBeenCalled();
    expect(hashOf(lazily)).toBe(hashOf(computeRunView(input())));
  }, 60_000);

  it('an edited preset is validated by zod, and runs as the zod path runs it', async () => {
    const edited = { ...input(), seed: 7 };
    expect(untouchedPreset(edited)).toBeUndefined();
    const lazily = await computeRunViewLazily(edited, () => {}, undefined, explain);
    expect(validate.parseScenario).toHaveBeenCalledTimes(1);
    expect(hashOf(lazily)).toBe(hashOf(computeRunView(edited)));
  }, 60_000);

  it('a bad scenario keeps its issues, each naming the field', async () => {
    const bad = { ...input(), seed: -1 };
    expect(await computeRunViewLazily(bad, () => {}, undefined, explain)).toEqual(
      computeRunView(bad),
    );
    expect(await computeRunViewLazily(bad, () => {}, undefined, explain)).toMatchObject({
      ok: false,
      issues: [{ path: 'seed' }],
    });
  });

  it('without the explainer: the same run, its explanations left out and the view marked so', async () => {
    const explained = await computeRunViewLazily(input(), () => {}, undefined, explain);
    const bare = await computeRunViewLazily(input(), () => {}, undefined, null);
    if (!explained.ok || !bare.ok) throw new Error('the preset runs');
    expect(traceHashOfView(bare.view)).toBe(traceHashOfView(explained.view));
    // acks=1's lost acknowledgement: one duplicate to explain, and the sentence for it.
    expect(explained.view.verdict.explanations).toHaveLength(1);
    expect(explained.view.verdict.explanations).toEqual(
      (computeRunView(input()) as { view: typeof explained.view }).view.verdict.explanations,
    );
    expect(explained.view.verdict.unexplained).toBeUndefined();
    expect(bare.view.verdict.explanations).toEqual([]);
    expect(bare.view.verdict.unexplained).toBe(true);
    expect(bare.view.verdict.points).toEqual(explained.view.verdict.points);
  });

  // The Flink job's and the Spark query's builders are each a chunk of their own
  // (src/engine/processors/flink.ts, spark.ts), imported by the run for such a scenario only.
  it.each(['flink-checkpoint-replay/2pc-read-committed', 'spark-batch-replay/append'])(
    '%s: its job builders imported for it, the same run as the zod path',
    async (ref) => {
      const written = () => structuredClone(findPreset(ref)!.variant.scenario);
      const lazily = await computeRunViewLazily(written(), () => {}, undefined, null);
      expect(lazily.ok).toBe(true);
      expect(hashOf(lazily)).toBe(hashOf(computeRunView(written())));
    },
    60_000,
  );

  it('the engine without the builders refuses a Flink run, naming them', () => {
    const parsed = parseScenario(findPreset('flink-checkpoint-replay/upsert')!.variant.scenario);
    if (!parsed.ok) throw new Error('the preset parses');
    expect(() => simulateUnexplained(parsed.scenario)).toThrow(/flink run needs the job builders/);
  });
});
