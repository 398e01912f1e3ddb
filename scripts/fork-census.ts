// What still stands in the way of forking a run (src/engine/atlas/fork.ts): each preset variant
// is paused halfway through its run and its state walked; every closure (or other part a
// snapshot cannot copy) is listed once, by its source, with how many variants hold one.
// `npx tsx scripts/fork-census.ts [preset-id…]`
import { parseScenario, simulate } from '../src/engine';
import { uncopyableParts } from '../src/engine/atlas/fork';
import { presets } from '../src/scenarios';

const only = process.argv.slice(2);
const sites = new Map<string, { variants: Set<string>; path: string }>();
let clean = 0;
let total = 0;
for (const preset of presets) {
  if (only.length > 0 && !only.includes(preset.id)) continue;
  for (const variant of preset.variants) {
    const parsed = parseScenario(variant.scenario);
    if (!parsed.ok) continue;
    const name = `${preset.id}/${variant.id}`;
    const whole = simulate(parsed.scenario, { explain: false });
    const half = Math.floor(whole.endTime / 2);
    let found = 0;
    simulate(parsed.scenario, {
      explain: false,
      onAssembled: (world, state) =>
        world.scheduleGlobal(half, () => {
          for (const e of uncopyableParts({ world, state })) {
            found++;
            // The path's indices vary; the source names the call site.
            const key = e.what;
            const s = sites.get(key) ?? { variants: new Set(), path: e.path };
            s.variants.add(name);
            sites.set(key, s);
          }
        }),
    });
    total++;
    if (found === 0) clean++;
  }
}
console.log(
  `${clean} of ${total} variants copyable halfway; ${sites.size} kinds of uncopyable parts:`,
);
for (const [what, s] of [...sites].sort((a, b) => b[1].variants.size - a[1].variants.size))
  console.log(`${String(s.variants.size).padStart(4)}  ${what}\n        e.g. ${s.path}`);
