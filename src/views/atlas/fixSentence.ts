/**
 * The atlas's suggestion (./fixSuggestion.ts) in words: a module of its own, so that the page's
 * atlas panel shows it without loading the runs that found it.
 */
import type { FixSuggestion } from './fixSuggestion';

/** The suggestion in one sentence, for the CLI's report and the page's counterexample. */
export function fixSentence(f: FixSuggestion): string {
  const list = f.knobs.map((k) => k.text).join(', ');
  // One fault's finding: the atlas run with the knob set is what tries the others.
  const only = `a finding on this fault only: run the atlas with ${f.knobs.length === 1 ? 'it' : 'them'} to try the others`;
  switch (f.kind) {
    case 'alone':
      return f.knobs.length === 1
        ? `On this fault, ${list} alone keeps the ${f.claim} claim (a knob of its recipe) — ${only}.`
        : `On this fault, each of ${list} alone keeps the ${f.claim} claim (knobs of its recipe) — ${only}.`;
    case 'together':
      return `On this fault, no one knob of the ${f.claim} recipe keeps the claim alone; together they do: ${list} — ${only}.`;
    case 'none':
      return `On this fault, not even the ${f.claim} recipe's knobs together keep the claim (${list}).`;
  }
}
