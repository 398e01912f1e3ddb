import { useState } from 'react';
import type { FaultSpec } from '../../engine';
import type { FixSuggestion } from '../../views/atlas/fixSuggestion';
import { fixSentence } from '../../views/atlas/fixSentence';
import { atlasTestIds } from './atlasTestIds';

type Knobs = FixSuggestion['knobs'];

/**
 * Under "Show me how this breaks": what keeps the claim on that fault, asked (a few runs, in an
 * atlas worker) — the knobs of the claim's recipe the scenario sets otherwise — and, where they
 * keep it, Compare of the break beside the same fault with them set, and the engineer's next
 * question: the atlas again with them set ("and with that knob, does it survive every fault?").
 */
export function AtlasFix({
  faults,
  suggest,
  onCompareFix,
  onExploreFix,
}: {
  faults: FaultSpec[];
  suggest: (faults: FaultSpec[]) => Promise<FixSuggestion | null>;
  onCompareFix: (faults: FaultSpec[], knobs: Knobs) => void;
  /** Set `knobs` on the scenario (one undo step) and run the atlas again. */
  onExploreFix: (knobs: Knobs) => void;
}) {
  const [state, setState] = useState<
    | { kind: 'idle' }
    | { kind: 'working' }
    | { kind: 'done'; fix: FixSuggestion | null }
    | { kind: 'failed'; error: string }
  >({ kind: 'idle' });
  const ask = () => {
    setState({ kind: 'working' });
    suggest(faults).then(
      (fix) => setState({ kind: 'done', fix }),
      (e: unknown) =>
        setState({ kind: 'failed', error: e instanceof Error ? e.message : String(e) }),
    );
  };
  const fix = state.kind === 'done' ? state.fix : null;
  // Each knob that keeps it alone is a lane of its own; knobs that keep it only together, one.
  const offers: Knobs[] =
    fix?.kind === 'alone'
      ? fix.knobs.slice(0, 3).map((k) => [k])
      : fix?.kind === 'together'
        ? [fix.knobs]
        : [];
  return (
    <div className="atlas-fix" data-testid={atlasTestIds.fix}>
      {state.kind === 'idle' && (
        <button type="button" onClick={ask}>
          What would keep the claim on it?
        </button>
      )}
      <p role="status" className={state.kind === 'idle' ? 'visually-hidden' : undefined}>
        {state.kind === 'working' && 'Trying the knobs of the claim’s recipe on this fault…'}
        {state.kind === 'failed' && `Not tried: ${state.error}`}
        {state.kind === 'done' &&
          (fix
            ? fixSentence(fix)
            : 'The scenario sets its claim’s recipe already: no knob of it to suggest.')}
      </p>
      {offers.map((knobs) => {
        const words = knobs.map((k) => k.text).join(', ');
        return (
          <span key={words} className="atlas-fix-offer">
            <button
              type="button"
              data-testid={atlasTestIds.fixCompare}
              onClick={() => onCompareFix(faults, knobs)}
            >
              Compare the break with {words}
            </button>
            <button
              type="button"
              data-testid={atlasTestIds.fixExplore}
              onClick={() => onExploreFix(knobs)}
            >
              Explore with {words}
            </button>
          </span>
        );
      })}
    </div>
  );
}
