/**
 * One summary of a batch job's fault atlas in the page and the terminal
 * (src/views/batch/batchAtlasSummary.ts). The page's heat map
 * said "12 of 23 single faults break the exactly-once claim: 0 lose events, 12 duplicate them" of
 * airflow-retry-append/append, whose `sim --explore` said "23 placements: 11 held, 12 duplicate —
 * 10 of the 12 come from a late-arriving row" — and both put down to the added faults what the
 * job does alone (its own crash after the write duplicates e1..e10).
 */
import { describe, expect, it } from 'vitest';
import {
  batchPairAtlas,
  parseScenario,
  type BatchPlacementKind,
  type ScenarioInput,
} from '../engine';
import { findPreset } from '../scenarios';
import { batchHeatMap } from '../views/batch/batchAtlas';
import { captured } from './cliTesting';
import type { ExploreReport } from './explore';
import { main } from './main';

const cliSummary = (argv: string[]): string =>
  (JSON.parse(captured(main, [...argv, '--format', 'json'], { join: '' }).out) as ExploreReport)
    .summary;

describe('a batch atlas’s summary', { timeout: 60_000 }, () => {
  it.each([
    'airflow-retry-append/append',
    'airflow-retry-append/overwrite',
    'redis-claim-order/claim-then-write',
    'redis-claim-order/one-transaction',
    'dedupe-ttl-expired/ttl-1-day',
  ])('%s: the page says what `sim --explore` says', (ref) => {
    const map = batchHeatMap(findPreset(ref)!.variant.scenario);
    if ('error' in map) throw new Error(map.error);
    expect(map.summary).toBe(cliSummary([ref, '--explore']));
  });

  it('the job’s own outcome is its own, not the added faults’; a pair counts for both its faults', () => {
    const append = batchHeatMap(findPreset('airflow-retry-append/append')!.variant.scenario);
    if ('error' in append) throw new Error(append.error);
    expect(append.summary).toBe(
      'The job breaks its exactly-once claim already with its own faults. 23 placements: 11 held, 12 duplicate — the 12 that duplicate do so as the job alone does.',
    );
    const ref = 'airflow-retry-append/overwrite';
    const input = findPreset(ref)!.variant.scenario as ScenarioInput;
    const parsed = parseScenario(input);
    if (!parsed.ok) throw new Error('bad preset');
    const kinds: BatchPlacementKind[] = ['crash', 'clear', 'late-row'];
    const pairs = batchHeatMap(
      input,
      batchPairAtlas(parsed.scenario.batch!, 'exactly-once', undefined, kinds),
    );
    if ('error' in pairs) throw new Error(pairs.error);
    expect(pairs.summary).toBe(
      '221 pairs of placements: 111 held, 110 lose — every loss comes from a pair with a late-arriving row.',
    );
    expect(pairs.summary).toBe(cliSummary([ref, '--explore', '--depth', '2']));
  });
});
