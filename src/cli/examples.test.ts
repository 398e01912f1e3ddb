/**
 * The example scenarios in public/scenarios/: each is valid, carries an `expect` block (worked out
 * by hand in its description), and the run matches it — through the library and through the CLI.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareExpect, parseScenarioJson, simulate } from '../engine';
// The parts and presets the executable imports per run, all imported (main is synchronous).
import './cliTesting';
import { main } from './main';

const DIR = 'public/scenarios';
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));

describe('example scenarios', () => {
  it('there are a handful of them', () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  it.each(files)('%s matches its expect block', (name) => {
    const parsed = parseScenarioJson(readFileSync(join(DIR, name), 'utf8'));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    expect(parsed.scenario.expect).toBeDefined();
    const run = simulate(parsed.scenario);
    expect(compareExpect(run, parsed.scenario.expect!)).toEqual([]);
    expect(
      main(
        [join(DIR, name), '--check'],
        () => undefined,
        () => undefined,
      ),
    ).toBe(0);
  });
});
