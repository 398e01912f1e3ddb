// Why the fault atlas's trials do not rejoin the scenario's own run (src/engine/atlas/rejoin.ts):
// for each variant, every trial the rejoin test tries (the test never given up) is counted by the
// place of the first token of state that differs from the own run's at the first checkpoint it
// tries, and at the last (src/engine/atlas/stateWalk.ts's labels: the classes and keys down to
// it; for a queue of another length, the kinds of tasks more or fewer), grouped by kind.
// `npx tsx scripts/atlas-rejoin-census.ts <variant prefix>…`; an atlas of more than
// ATLAS_CENSUS_ABOVE placements (default 400) is taken on that many evenly spaced ones.
import {
  enumeratePlacements,
  firstRun,
  parseScenario,
  runTrials,
  trialFaults,
} from '../src/engine';
import { noRejoinStats, type RejoinStats } from '../src/engine';
import { presets } from '../src/scenarios';
import { pickPlacements } from '../bench/atlasSample';

const SIZE = Number(process.env.ATLAS_CENSUS_ABOVE ?? 400);
const only = process.argv.slice(2);

/** The kind of state a place holds, first match wins (the census's groups). */
const KINDS: [RegExp, string][] = [
  [/^\(rejoined/, 'rejoined'],
  [/^\(/, 'no state compared'],
  [/SinkActor\.rows/, 'sink table rows'],
  [/ServiceActor\.(effectsOf|effects|sum)\b/, 'external effects'],
  [/Partition\./, 'log records'],
  [/World\.faults/, 'fault counters'],
  [/World\.queue/, 'pending tasks (timers, messages)'],
  [/Flink|Checkpoint|JobManager/, 'Flink job state'],
  [/Spark/, 'Spark query state'],
  [/Producer|Client|Accumulator|Batch/, 'producer client'],
  [/Consumer|Group|Coordinator/, 'consumer, group'],
  [/Broker|Cluster|Replica|Txn|Transaction/, 'broker'],
];

/** A place's last four steps, and what follows them (the queue's difference by kind). */
function shortPlace(place: string): string {
  const cut = place.indexOf(' (');
  const path = cut < 0 ? place : place.slice(0, cut);
  return path.split(' ').slice(-4).join(' ') + (cut < 0 ? '' : place.slice(cut));
}

function kindOf(place: string): string {
  for (const [re, k] of KINDS) if (re.test(place)) return k;
  return 'other';
}

for (const preset of presets)
  for (const variant of preset.variants) {
    const id = `${preset.id}/${variant.id}`;
    if (!only.some((o) => id.startsWith(o))) continue;
    const parsed = parseScenario(variant.scenario);
    if (!parsed.ok) continue;
    const s = parsed.scenario;
    const first = firstRun(s);
    const placements = enumeratePlacements(s, first, undefined);
    const picked = pickPlacements(placements.length, SIZE);
    const census = new Map<string, number>();
    const stats: RejoinStats = { ...noRejoinStats(), census };
    runTrials(s, trialFaults(placements, picked), first.cutOff, { rejoinStats: stats });
    const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
    console.log(
      `${id}: ${picked.length} of ${placements.length} placements, ${stats.tried} trials tested, ${stats.rejoined} rejoined (${stats.settled} with other settled history)`,
    );
    for (const when of ['first', 'last']) {
      const places = new Map<string, number>();
      const kinds = new Map<string, number>();
      for (const [key, n] of census) {
        if (!key.startsWith(`${when}: `)) continue;
        const place = key.slice(when.length + 2);
        places.set(place, n);
        kinds.set(kindOf(place), (kinds.get(kindOf(place)) ?? 0) + n);
      }
      console.log(`  at the ${when} checkpoint tried:`);
      for (const [k, n] of sorted(kinds)) console.log(`    ${String(n).padStart(5)}  ${k}`);
      for (const [place, n] of sorted(places).slice(0, 8))
        console.log(`           ${String(n).padStart(5)}  ${shortPlace(place)}`);
    }
  }
