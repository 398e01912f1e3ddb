import { findPreset } from '../src/scenarios/index';
import { parseScenario } from '../src/engine/scenario/validate';
import { firstRun } from '../src/engine/atlas/explore';
import { enumeratePlacements } from '../src/engine/atlas/placements';
import { forEachTrialRun } from '../src/engine/atlas/continuation';
import { buildEvents } from '../src/engine/scenario/workload';
const r = parseScenario(findPreset(process.argv[2] ?? 'lost-ack-retry')!.variant.scenario);
if (!r.ok) throw new Error('bad');
const s = r.scenario;
const pl = enumeratePlacements(s, firstRun(s));
const trials = pl.map((p) => [p.fault]);
const events = buildEvents(s.workload, s.seed);
for (const path of ['scratch', 'snapshot', 'scratch', 'snapshot'] as const) {
  const t = process.cpuUsage();
  let n = 0;
  forEachTrialRun(s, trials, events, () => n++, { path });
  const u = process.cpuUsage(t);
  console.log(path, n, ((u.user + u.system) / 1000).toFixed(0), 'ms CPU');
}
