// What still stands in the way of forking a run (src/engine/atlas/fork.ts): each preset variant
// is paused halfway through its run and its state walked; every closure (or other part a
// snapshot cannot copy) is listed once, by its source, with how many variants hold one. With
// `--every`, each variant is paused before every moment that has a task, not just halfway.
// `npx tsx scripts/fork-census.ts [--every] [preset-id…]`
import { parseScenario, simulate } from '../src/engine';
import { advanceRun, assembleRun } from '../src/engine/simulate';
import { uncopyableParts } from '../src/engine/atlas/fork';
import { presets } from '../src/scenarios';

const every = process.argv.includes('--every');
const only = process.argv.slice(2).filter((a) => a !== '--every');
const sites = new Map<string, { variants: Set<string>; path: string }>();
let clean = 0;
let total = 0;
for (const preset of presets) {
  if (only.length > 0 && !only.includes(preset.id)) continue;
  for (const variant of preset.variants) {
    const parsed = parseScenario(variant.scenario);
    if (!parsed.ok) continue;
    const name = `${preset.id}/${variant.id}`;
    let found = 0;
    const look = (run: Parameters<typeof uncopyableParts>[0]): void => {
      for (const e of uncopyableParts(run)) {
        found++;
        // The path's indices vary; the source names the call site.
        const key = e.what;
        const s = sites.get(key) ?? { variants: new Set(), path: e.path };
        s.variants.add(name);
        sites.set(key, s);
      }
    };
    if (every) {
      const run = assembleRun(parsed.scenario, { explain: false });
      for (let t = run.world.nextTime(); t !== undefined; t = run.world.nextTime()) {
        look(run);
        if (!advanceRun(run, t + 1)) break;
      }
    } else {
      const whole = simulate(parsed.scenario, { explain: false });
      const half = Math.floor(whole.endTime / 2);
      simulate(parsed.scenario, {
        explain: false,
        onAssembled: (world, state) => world.scheduleGlobal(half, () => look({ world, state })),
      });
    }
    total++;
    if (found === 0) clean++;
  }
}
console.log(
  `${clean} of ${total} variants copyable ${every ? 'at every moment' : 'halfway'}; ${sites.size} kinds of uncopyable parts:`,
);
for (const [what, s] of [...sites].sort((a, b) => b[1].variants.size - a[1].variants.size))
  console.log(`${String(s.variants.size).padStart(4)}  ${what}\n        e.g. ${s.path}`);
