import { useId } from 'react';
import type { Preset } from '../../scenarios';
import { useLabInstance } from '../../store/LabContext';
import { questionVariant } from '../../views/library';
import { testIds } from '../testIds';
import { useLibraryUi } from './LibraryContext';
import { usePredictionGate } from './usePredictionGate';

/**
 * "Predict first": the preset's question, a place to write an answer and lock it in, and the
 * answer — revealed once the question's variant, as shipped, has been played (or scrubbed) to its
 * end, or on "Reveal now" (`predictionPhase` in views/library).
 * Kept per preset, so switching variants keeps the prediction and the reveal.
 */
export function PredictionBox({
  preset,
  variantId,
  onOpenVariant,
}: {
  preset: Preset;
  /** The variant on screen. */
  variantId?: string;
  /** Open another variant of the preset (the one the question is about). */
  onOpenVariant?: (id: string) => void;
}) {
  const ui = useLibraryUi()!;
  const lab = useLabInstance();
  const p = ui.prediction(preset.id);
  const update = ui.updatePrediction;
  const inputId = useId();
  const headingId = useId();
  // The variant the question is about (the first one unless the preset names another): on any
  // other variant the question would not match the run on screen, so the box says so.
  const about = preset.variants.find((v) => v.id === questionVariant(preset));
  // Reaching the end of the run reveals the answer: LibraryContext watches the cursor (this box
  // is not mounted while the story is folded away).
  const phase = usePredictionGate().phase;

  const lock = () => {
    if (p.text.trim() !== '') update(preset.id, { locked: true });
  };

  return (
    <section
      className={`predict${p.revealed ? ' revealed' : ''}`}
      aria-labelledby={headingId}
      data-testid={testIds.predict}
      data-revealed={p.revealed}
    >
      <h3 id={headingId}>Predict first</h3>
      <p className="predict-question" data-testid={testIds.predictQuestion}>
        {preset.predict.question}
      </p>
      {about && about.id !== variantId && (
        <p className="predict-about muted" data-testid={testIds.predictAbout}>
          This question is about the “{about.label}” variant.{' '}
          {onOpenVariant && (
            <button type="button" className="linkish" onClick={() => onOpenVariant(about.id)}>
              Open it
            </button>
          )}
        </p>
      )}
      {p.locked ? (
        <p className="predict-yours" data-testid={testIds.predictYours}>
          <span className="muted">You predicted:</span> <q>{p.text}</q>{' '}
          {!p.revealed && (
            <button
              type="button"
              className="linkish"
              onClick={() => update(preset.id, { locked: false })}
            >
              change
            </button>
          )}
        </p>
      ) : (
        <form
          className="predict-form"
          onSubmit={(e) => {
            e.preventDefault();
            lock();
          }}
        >
          <label htmlFor={inputId} className="visually-hidden">
            Your prediction
          </label>
          <textarea
            id={inputId}
            rows={2}
            value={p.text}
            placeholder="Your prediction…"
            title="Ctrl+Enter locks it in"
            data-testid={testIds.predictInput}
            onChange={(e) => update(preset.id, { text: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                lock();
              }
            }}
          />
          <button type="submit" disabled={p.text.trim() === ''} data-testid={testIds.predictLock}>
            Lock in
          </button>
        </form>
      )}
      {p.revealed ? (
        <>
          <div className="predict-answer" role="status" data-testid={testIds.predictAnswer}>
            <strong>Answer:</strong> {preset.predict.answer}
          </div>
          <p className="predict-hint">
            <button
              type="button"
              className="linkish"
              title="Back to time 0 with the question open (the next group, the next class)"
              onClick={() => {
                // Back to the start first: at the end of the run the answer would show again.
                lab.actions.restart();
                update(preset.id, { text: '', locked: false, revealed: false });
              }}
            >
              Ask again
            </button>
          </p>
        </>
      ) : (
        <p className="predict-hint muted">
          {phase === 'edited'
            ? 'Changed since it was opened: the answer is about the preset as shipped.'
            : phase === 'other-variant'
              ? ''
              : p.locked
                ? 'Now press Play: the answer appears when the run reaches its end.'
                : 'The answer and the verdict appear when the run reaches its end.'}{' '}
          <button
            type="button"
            className="linkish"
            onClick={() => update(preset.id, { revealed: true })}
            data-testid={testIds.predictReveal}
          >
            Reveal now
          </button>
        </p>
      )}
    </section>
  );
}
