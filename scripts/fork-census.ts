// What still stands in the way of forking a run (src/engine/atlas/fork.ts): each preset variant
// is paused halfway through its run — or, with `--every`, at every millisecond it has work at
// (after that millisecond's tasks) — and its state walked; every closure (or other part a
// snapshot cannot copy) is listed once, by its source, with how many variants hold one.
// `npx tsx scripts/fork-census.ts [--every] [--processor spark|consumer|flink…] [preset-id…]`
import { parseScenario, simulate } from '../src/engine';
import { assembleRun, advanceRun, type AssembledRun } from '../src/engine/simulate';
import { uncopyableParts } from '../src/engine/atlas/fork';
import type { UncopyableError } from '../src/engine/core/deepCopy';
import { presets } from '../src/scenarios';

const args = process.argv.slice(2);
const every = args.includes('--every');
const pi = args.indexOf('--processor');
const processor = pi >= 0 ? args[pi + 1] : undefined;
const only = args.filter((a, i) => !a.startsWith('--') && (pi < 0 || i !== pi + 1));
const sites = new Map<string, { variants: Set<string>; path: string }>();
let clean = 0;
let total = 0;
for (const preset of presets) {
  if (only.length > 0 && !only.includes(preset.id)) continue;
  for (const variant of preset.variants) {
    const parsed = parseScenario(variant.scenario);
    if (!parsed.ok) continue;
    if (processor !== undefined && parsed.scenario.processor.type !== processor) continue;
    const name = `${preset.id}/${variant.id}`;
    let found = 0;
    const note = (parts: UncopyableError[]): void => {
      for (const e of parts) {
        found++;
        // The path's indices vary; the source names the call site.
        const s = sites.get(e.what) ?? { variants: new Set(), path: e.path };
        s.variants.add(name);
        sites.set(e.what, s);
      }
    };
    if (every) {
      const run: AssembledRun = assembleRun(parsed.scenario, { explain: false });
      for (;;) {
        const t = run.world.nextTime();
        if (t === undefined || !advanceRun(run, t + 1)) break;
        note(uncopyableParts(run));
      }
    } else {
      const whole = simulate(parsed.scenario, { explain: false });
      const half = Math.floor(whole.endTime / 2);
      simulate(parsed.scenario, {
        explain: false,
        onAssembled: (world, state) =>
          world.scheduleGlobal(half, () => note(uncopyableParts({ world, state }))),
      });
    }
    total++;
    if (found === 0) clean++;
  }
}
console.log(
  `${clean} of ${total} variants copyable ${every ? 'at every moment' : 'halfway'}; ` +
    `${sites.size} kinds of uncopyable parts:`,
);
for (const [what, s] of [...sites].sort((a, b) => b[1].variants.size - a[1].variants.size))
  console.log(`${String(s.variants.size).padStart(4)}  ${what}\n        e.g. ${s.path}`);
