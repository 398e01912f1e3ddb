import { useRef } from 'react';
import { focusSoon } from '../hooks/focusSoon';
import { testIds } from '../testIds';
import './styles/hiddenOutcome.css';
import type { PredictionGate } from './usePredictionGate';

/**
 * What a panel shows instead of the outcome while "Predict first" waits for its answer: why it is
 * hidden, and one button that shows everything (for whoever does not want to predict).
 */
export function HiddenOutcome({
  gate,
  what,
  className,
}: {
  gate: PredictionGate;
  /** What is hidden, for tests and styles: `verdict`, `why`, `fates`, `story`. */
  what: string;
  className?: string;
}) {
  const self = useRef<HTMLDivElement>(null);
  return (
    <div
      ref={self}
      className={`outcome-hidden${className ? ` ${className}` : ''}`}
      data-testid={testIds.outcomeHidden}
      data-what={what}
    >
      <span>
        {gate.folded
          ? 'Shown when the run reaches its end.'
          : gate.phase === 'locked'
            ? 'Hidden until the run reaches its end.'
            : gate.phase === 'edited-waiting'
              ? 'Changed since it was opened: hidden until this run reaches its end.'
              : 'Hidden until you answer the prediction and play the run to its end.'}
      </span>{' '}
      <button
        type="button"
        className="linkish"
        onClick={() => {
          // This note gives way to the outcome: the focus goes to the panel that shows it.
          const panel = self.current?.parentElement;
          if (gate.folded) gate.revealNow();
          else gate.skip();
          focusSoon(() => panel);
        }}
        data-testid={gate.folded ? testIds.outcomeRevealNow : testIds.outcomeShow}
      >
        {gate.folded ? 'Reveal now' : 'Show the answer'}
      </button>
    </div>
  );
}
