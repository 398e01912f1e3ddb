// Type-checks every tsconfig project with `tsc -p <project> --noEmit`.
// The engine project is skipped while src/engine/ holds no non-test .ts file, because tsc fails a
// project whose include matches nothing ("No inputs were found", TS18003).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** @param {string} name  Mirrors tsconfig.engine.json: *.ts files, tests excluded. */
const isEngineInput = (name) => name.endsWith('.ts') && !name.endsWith('.test.ts');

/** @param {string} dir @returns {boolean} */
function hasTsFile(dir) {
  if (!existsSync(dir)) return false;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() ? hasTsFile(path) : isEngineInput(entry.name)) return true;
  }
  return false;
}

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const projects = ['tsconfig.json', 'tsconfig.node.json'];
if (hasTsFile('src/engine')) projects.push('tsconfig.engine.json');
else console.log('typecheck: skipping tsconfig.engine.json (src/engine/ has no .ts file yet)');

let failed = 0;
for (const project of projects) {
  const result = spawnSync(process.execPath, [tsc, '-p', project, '--noEmit'], {
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    failed += 1;
    console.error(`typecheck: ${project} failed`);
  } else {
    console.log(`typecheck: ${project} ok`);
  }
}
process.exit(failed === 0 ? 0 : 1);
