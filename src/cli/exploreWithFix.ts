/**
 * The command that explores the scenario again with what keeps the claim on its minimal
 * counterexample (src/views/atlas/fixSuggestion.ts): the suggestion is a finding on one fault, and
 * the atlas with the knob set is what tries every other. `--explore`'s `fix:` line ends with it,
 * written so that it runs as printed: the scenario as it was given, the options that made this
 * atlas (`--seed`, `--set`, `--depth`, `--kinds`), and the knobs as `--set` takes them
 * (docs/cli.md).
 */
import type { Scenario } from '../engine';
import type { FixSuggestion } from '../views/atlas/fixSuggestion';
import { knobsFor } from '../views/edit/knobs';

/** How this atlas was asked for: what to repeat in the command that explores with the fix. */
export interface ExploreCommand {
  /** The scenario as given: a file, a preset id, a share link. */
  target: string;
  /** Options that make the scenario (`--seed N`, `--set K=V`…), repeated before the knobs. */
  scenarioOptions: string[];
  /** Options that make the atlas (`--depth 2`, `--kinds …`), repeated after `--explore`. */
  atlasOptions: string[];
}

/** A word as a POSIX shell reads it back: bare when it is safe, else single-quoted. */
export function shellWord(s: string): string {
  return /^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A knob's value as `--set` reads it back (./compare.ts `setKnobs`: the Knobs tab's words, else JSON). */
function valueText(value: unknown): string {
  if (value === null) return 'off';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * `acks=all`: the knob by its real name where no other knob of this scenario's pipeline has it
 * (as `--set` resolves a name), else by its path (`processor.isolation.level=read_committed`).
 */
function knobArgument(s: Scenario, k: FixSuggestion['knobs'][number]): string {
  const knobs = knobsFor(s);
  const meta = knobs.find((m) => m.path === k.path);
  const unique = meta !== undefined && knobs.filter((m) => m.name === meta.name).length === 1;
  return `${unique ? meta.name : k.path}=${valueText(k.value)}`;
}

/**
 * The commands that explore `s` with the fix: one per knob that keeps the claim alone, one with
 * every knob when only together they do, none when not even they do.
 */
export function fixCommands(s: Scenario, fix: FixSuggestion, asked: ExploreCommand): string[] {
  const sets: FixSuggestion['knobs'][] =
    fix.kind === 'alone' ? fix.knobs.map((k) => [k]) : fix.kind === 'together' ? [fix.knobs] : [];
  return sets.map((knobs) =>
    [
      'delivery-lab',
      shellWord(asked.target),
      ...asked.scenarioOptions.map(shellWord),
      ...knobs.flatMap((k) => ['--set', shellWord(knobArgument(s, k))]),
      '--explore',
      ...asked.atlasOptions.map(shellWord),
    ].join(' '),
  );
}
