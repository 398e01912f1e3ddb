// Does a response delayed past its client's timeout (`delay-response`) end as the same response
// lost (`drop-response`)? For each preset variant named (IDS=a/b,c/d; default the Flink 2pc one),
// both trials of every response the atlas delays, and their results compared (outcome,
// duplicated, lost, fired), per link. docs/benchmarks.md, "A late answer is a lost one: measured,
// not taken".
import { BufferPool, enumeratePlacements, firstRun, runTrials, trialFaults } from '../src/engine';
import type { FaultSpec } from '../src/engine';
import { presetScenario } from '../bench/presetScenario';

const ids = (process.env.IDS ?? 'flink-checkpoint-replay/2pc-read-committed').split(',');
const pool = new BufferPool();
for (const id of ids) {
  const s = presetScenario(id);
  const first = firstRun(s, pool);
  const placements = enumeratePlacements(s, first, undefined);
  pool.reclaim(first);
  const key = (f: FaultSpec) =>
    f.kind === 'drop-response' || f.kind === 'delay-response'
      ? `${f.link}@${f.at}#${f.match.nth}`
      : '';
  const drops = new Map<string, number>();
  placements.forEach((p, i) => {
    if (p.kind === 'drop-response') drops.set(key(p.fault), i);
  });
  const pairs: { drop: number; delay: number; link: string }[] = [];
  placements.forEach((p, i) => {
    if (p.kind === 'delay-response' && p.fault.kind === 'delay-response')
      pairs.push({ drop: drops.get(key(p.fault))!, delay: i, link: p.fault.link });
  });
  const results = runTrials(
    s,
    trialFaults(
      placements,
      pairs.flatMap((x) => [[x.drop], [x.delay]]),
    ),
    first.cutOff,
    { pool },
  );
  const byLink = new Map<string, { same: number; differ: number }>();
  pairs.forEach((x, k) => {
    const [a, b] = [results[2 * k]!, results[2 * k + 1]!];
    const same =
      a.outcome === b.outcome &&
      a.duplicated === b.duplicated &&
      a.lost === b.lost &&
      a.fired === b.fired;
    const c = byLink.get(x.link) ?? { same: 0, differ: 0 };
    c[same ? 'same' : 'differ']++;
    byLink.set(x.link, c);
    if (!same) console.log(`  differ: ${placements[x.delay]!.label}`);
  });
  const links = [...byLink].map(([l, c]) => `${l} ${c.same} same, ${c.differ} differ`);
  console.log(
    `${id}: ${placements.length} placements, ${pairs.length} delayed; ${links.join('; ')}`,
  );
}
