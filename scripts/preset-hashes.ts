// Prints the trace hash and verdict of every preset variant and example scenario, at seeds 1 and 7:
// a reference to compare before and after a refactor that must leave every run unchanged
// (`npx tsx scripts/preset-hashes.ts > before.txt`, change, again, `diff`).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, parseScenario, simulate, traceHash } from '../src/engine';
import { presets } from '../src/scenarios';

function hashWords(s: string): string {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}

function line(name: string, raw: unknown): string {
  const out: string[] = [];
  for (const seed of [1, 7]) {
    const parsed = parseScenario({ ...(raw as object), seed });
    if (!parsed.ok) {
      out.push(`seed ${seed}: refused ${parsed.issues[0]?.message ?? ''}`);
      continue;
    }
    const run = simulate(parsed.scenario);
    const verdict = check(run);
    const words = verdict.explanations.map((e) => JSON.stringify(e)).join('|');
    out.push(
      `seed ${seed}: ${traceHash(run.trace)} held=${verdict.held} ${verdict.observed} ${words.length}:${hashWords(words)}`,
    );
  }
  return `${name}\t${out.join('\t')}`;
}

for (const preset of presets) {
  for (const variant of preset.variants)
    console.log(line(`${preset.id}/${variant.id}`, variant.scenario));
}
const dir = 'public/scenarios';
for (const file of readdirSync(dir).sort()) {
  console.log(line(file, JSON.parse(readFileSync(join(dir, file), 'utf8'))));
}
