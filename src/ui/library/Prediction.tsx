import { useCallback, useId, useRef, useState, type ReactNode } from 'react';
import { showInScrollBox } from '../hooks/showInScrollBox';
import type { AskedNumber, ChoiceOption, Preset } from '../../scenarios';
import { useCursor, useLab, useLabInstance, useView } from '../../store/LabContext';
import { questionVariant } from '../../scenarios/defaultVariant';
import {
  judgeChoice,
  judgeCount,
  markNote,
  markPrediction,
  PREDICTION_CHOICES,
  predictionProblem,
  presetQuestion,
  type AskedQuestion,
  type PredictionMarking,
} from '../../views/library/question';
import { Breakable } from '../Breakable';
import { focusSoon } from '../hooks/focusSoon';
import { testIds } from '../testIds';
import { ANSWER_FIELD } from './answerField';
import { usePredictions } from './PredictionContext';
import { usePredictionGate } from './usePredictionGate';
import './styles/predict.css';

const selectPlaying = (s: { playing: boolean }) => s.playing;
const selectMoved = (c: { idx: number }) => c.idx > 0;

/**
 * "Predict first" for the open preset, beside the pipeline: its question, and a note with a
 * link when the variant on screen is not the one the question is about. Kept per preset, so
 * switching variants keeps the prediction and the reveal.
 */
export function PredictionBox({
  preset,
  variantId,
  onOpenVariant,
  yoursInCounters = false,
}: {
  preset: Preset;
  /** The variant on screen. */
  variantId?: string;
  /** Open another variant of the preset (the one the question is about). */
  onOpenVariant?: (id: string) => void;
  /** The answer locked in is read in the counters' row (see {@link PredictFirst}). */
  yoursInCounters?: boolean;
}) {
  // The variant the question is about (the first one unless the preset names another): on any
  // other variant the question would not match the run on screen, so the box says so.
  const about = preset.variants.find((v) => v.id === questionVariant(preset));
  return (
    <PredictFirst
      question={presetQuestion(preset.id, preset)}
      yoursInCounters={yoursInCounters}
      note={
        about &&
        about.id !== variantId && (
          <p className="predict-about muted" data-testid={testIds.predictAbout}>
            This question is about the “{about.label}” variant.{' '}
            {onOpenVariant && (
              <button type="button" className="linkish" onClick={() => onOpenVariant(about.id)}>
                Open it
              </button>
            )}
          </p>
        )
      }
    />
  );
}

/**
 * "Predict first": a question, a place to answer it (in words, or one of the choices) and lock
 * the answer in, and the answer — revealed once the run on screen, as opened, has been played (or
 * scrubbed) to its end, or on "Show the answer" (`predictionPhase` in views/library; the end is
 * watched by the PredictionProvider). The page's story panel and the embedded player both use it.
 */
export function PredictFirst({
  question,
  note,
  onLock,
  restart,
  outcome,
  original = 'the preset as shipped',
  headingLevel = 3,
  ids = {},
  yoursInCounters = false,
}: {
  question: AskedQuestion;
  /** Under the question (the page: the question is about another variant). */
  note?: ReactNode;
  /** After the answer is locked in (the embed plays on). */
  onLock?: () => void;
  /** "Ask again" goes back here; default time 0. */
  restart?: () => void;
  /** Shown with the answer once revealed (the embed: the run's outcome in one line). */
  outcome?: ReactNode;
  /** What the answer describes, for the hint when the scenario was changed since it was opened. */
  original?: string;
  headingLevel?: 2 | 3;
  /** Test ids of the box, its "Show the answer" and its answer (default: the page's). */
  ids?: { box?: string; reveal?: string; answer?: string };
  /**
   * The page: once locked in and until the reveal, "You predicted" is read in the counters' row,
   * beside the verdict's card that says what to do next (LockedPrediction), not in this box —
   * which then holds the question only, and fits beside the pipeline more often (issue 24).
   */
  yoursInCounters?: boolean;
}) {
  const predictions = usePredictions()!;
  const lab = useLabInstance();
  const view = useView();
  const key = question.key;
  const p = predictions.prediction(key);
  const update = predictions.updatePrediction;
  const inputId = useId();
  const headingId = useId();
  const { phase, edited } = usePredictionGate();
  const playing = useLab(selectPlaying);
  // The run has moved on from its start (played, stepped): the room watches it, answers closed.
  const runMoved = useCursor(selectMoved) || playing;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  const box = useRef<HTMLElement>(null);
  // The answer appears at the end of the run, at the bottom of a story column that scrolls: on a
  // projector its "why not" was below the column's edge. Brought into sight as it appears.
  const showAnswer = useCallback((el: HTMLDivElement | null) => {
    if (el) showInScrollBox(el);
  }, []);
  /** After the re-render, focus what `selector` finds in this box (handlers only). */
  const focusIn = (selector: string, options?: FocusOptions) =>
    focusSoon(() => box.current?.querySelector<HTMLElement>(selector), options);
  // Why the prediction cannot be locked in yet ("the question asks for 2 numbers…"), shown after
  // a try: a prediction that cannot be marked is not locked in as an answer.
  // Kept with its question's key: another preset's box does not inherit it.
  const [problemOf, setProblemOf] = useState<{ key: string; why: string } | null>(null);
  const problem = problemOf?.key === key ? problemOf.why : null;
  const setProblem = (why: string | null) => setProblemOf(why ? { key, why } : null);
  const lock = (change: { choice?: string; text?: string } = {}) => {
    const text = (change.text ?? p.text).trim();
    if (text === '') return;
    const why = question.mark ? predictionProblem(text, question.mark, question.text) : null;
    if (why) {
      setProblem(why);
      return;
    }
    setProblem(null);
    update(key, { choice: null, ...change, text, locked: true });
    onLock?.();
    // The locked prediction, not a button: Space there plays the run, as the hint says. Without
    // scrolling: the story leaves its band for the side as the answer is locked in, and following
    // it scrolled the page 403 px, the transport (Play, as the hint says) out of sight. In this
    // box, or in the counters' row (`yoursInCounters`).
    focusSoon(
      () =>
        box.current?.querySelector<HTMLElement>('.predict-yours') ??
        document.querySelector<HTMLElement>('.counters .predict-yours'),
      { preventScroll: true },
    );
  };
  const judged =
    question.choices && p.choice !== null && view
      ? judgeChoice(p.choice, view.verdict.observed)
      : null;
  // A written prediction marked as the question says (a preset's `mark`), while the run is the
  // one the answer describes; without a mark, a count ("20") against an answer that starts with
  // one ("24: …").
  const marked: PredictionMarking | null =
    judged || !p.locked || p.text === '' || edited || question.choices
      ? null
      : question.mark
        ? markPrediction(p.text, question.mark, question.text)
        : countMarking(question.answer ? judgeCount(p.text, question.answer) : null);
  // How the answer will be marked, said while it is written (a question in words is not marked).
  const markHint =
    question.mark && !p.locked && !p.revealed && phase !== 'other-variant'
      ? markNote(question.mark)
      : null;
  const hintId = useId();
  const problemId = useId();
  const mark = question.mark;
  /** The one number asked, when the question asks for one: its own input, with its unit. */
  const oneNumber = mark?.kind === 'numbers' && mark.values.length === 1 ? mark.values[0]! : null;
  const describedBy = [markHint ? hintId : '', problem ? problemId : ''].join(' ').trim();
  const write = (text: string) => {
    setProblem(null);
    update(key, { text });
  };

  return (
    <section
      ref={box}
      // The page's own box is the target of "Skip to the question" (SkipToQuestion.tsx).
      id={ids.box === undefined ? 'predict' : undefined}
      className={`predict${p.revealed ? ' revealed' : ''}`}
      aria-labelledby={headingId}
      data-testid={ids.box ?? testIds.predict}
      data-revealed={p.revealed}
    >
      <Heading id={headingId}>Predict first</Heading>
      <p className="predict-question" data-testid={testIds.predictQuestion}>
        <Breakable text={question.text} />
      </p>
      {note}
      {/* On another variant the question is not about this run: nothing to answer here. */}
      {phase === 'other-variant' ? null : p.room && !p.locked ? (
        // The page's room was asked this question (src/ui/room/usePageRoomPrediction.ts): its
        // answers are the prediction, on the room's panel.
        <p className="predict-yours" data-testid={testIds.predictRoom}>
          {p.revealed
            ? 'The room predicted: its answers are on the room’s panel.'
            : runMoved
              ? 'The room has predicted: its answers show with the answer, at the run’s end.'
              : 'The room is predicting: press Play when its answers are in.'}
        </p>
      ) : p.revealed && !p.locked ? (
        // Shown without a prediction ("Show the answer", in the box or the verdict): an empty box and its
        // "Lock in" beside the answer would invite a guess already given away. "Ask again"
        // (below the answer) brings the box back.
        <p className="predict-yours muted" data-testid={testIds.predictSkipped}>
          You skipped the prediction.
        </p>
      ) : p.locked ? (
        yoursInCounters && phase === 'locked' ? null : (
          <YourPrediction
            text={p.text}
            onChange={
              p.revealed
                ? undefined
                : () => {
                    update(key, { locked: false });
                    focusIn(ANSWER_FIELD);
                  }
            }
          />
        )
      ) : question.choices ? (
        <div className="predict-choices" role="group" aria-label="Your prediction">
          {PREDICTION_CHOICES.map((c) => (
            <button
              key={c.id}
              type="button"
              data-choice={c.id}
              aria-pressed={p.choice === c.id}
              onClick={() => lock({ choice: c.id, text: c.label })}
            >
              {c.label}
            </button>
          ))}
        </div>
      ) : mark?.kind === 'choice' ? (
        <form
          className="predict-form predict-options-form"
          onSubmit={(e) => {
            e.preventDefault();
            const chosen = mark.options.find((o) => o.id === p.choice);
            if (chosen) lock({ choice: chosen.id, text: chosen.text });
          }}
        >
          <fieldset className="predict-options" data-testid={testIds.predictOptions}>
            <legend className="visually-hidden">Your prediction</legend>
            {mark.options.map((o) => (
              <ChoiceRadio
                key={o.id}
                option={o}
                name={inputId}
                checked={p.choice === o.id}
                onChoose={() => update(key, { choice: o.id, text: o.text })}
              />
            ))}
          </fieldset>
          <button type="submit" disabled={p.choice === null} data-testid={testIds.predictLock}>
            Lock in
          </button>
        </form>
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
          {oneNumber ? (
            <NumberField
              id={inputId}
              asked={oneNumber}
              value={p.text}
              describedBy={describedBy}
              onChange={write}
            />
          ) : (
            <textarea
              id={inputId}
              rows={2}
              value={p.text}
              placeholder="Your prediction…"
              title="Ctrl+Enter locks it in"
              aria-describedby={describedBy || undefined}
              aria-invalid={problem ? true : undefined}
              data-testid={testIds.predictInput}
              onChange={(e) => write(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                  e.preventDefault();
                  lock();
                }
              }}
            />
          )}
          <button type="submit" disabled={p.text.trim() === ''} data-testid={testIds.predictLock}>
            Lock in
          </button>
        </form>
      )}
      {problem && !p.locked && (
        <p
          id={problemId}
          className="predict-problem"
          role="alert"
          data-testid={testIds.predictProblem}
        >
          Not locked in: {problem}
        </p>
      )}
      {markHint && (
        <p id={hintId} className="predict-hint muted predict-mark">
          {markHint}
        </p>
      )}
      {phase === 'other-variant' ? (
        // The answer describes the variant the question is about (the note opens it), not this
        // run: shown here as "Answer:" it contradicted the run on screen (lost-ack-retry's
        // idempotence-on ends with 10 rows; the answer said 11). This run tells at its end.
        <p className="predict-hint muted">This run’s outcome shows when it reaches its end.</p>
      ) : p.revealed && edited ? (
        <p className="predict-hint muted" data-testid={testIds.predictAnswerEdited}>
          Your edit changed the run: the answer describes {original}, not this run, so it is not
          shown here. Undo (Ctrl+Z) or reload it as shipped to see it.
        </p>
      ) : p.revealed ? (
        <>
          <div
            ref={showAnswer}
            className="predict-answer"
            role="status"
            data-testid={ids.answer ?? testIds.predictAnswer}
            data-judged={judged ? (judged.right ? 'right' : 'wrong') : marked?.kind}
          >
            {marked && marked.kind !== 'unmarked' && (
              <p className={`predict-judged ${marked.kind}`}>
                <span aria-hidden="true">{marked.kind === 'right' ? '✓ ' : '✕ '}</span>
                {marked.kind === 'right'
                  ? `Right: ${marked.expected}.`
                  : `Not quite: ${marked.expected}, not ${marked.said}.`}
                {marked.whyNot && (
                  <span className="predict-why-not" data-testid={testIds.predictWhyNot}>
                    {' '}
                    Why not: {marked.whyNot}
                  </span>
                )}
                {marked.notMarked && (
                  <span className="predict-unmarked">
                    {' '}
                    Not marked: {marked.notMarked} — compare yours with the answer.
                  </span>
                )}
              </p>
            )}
            {marked?.kind === 'unmarked' && (
              <p className="predict-judged unmarked">Not marked: {marked.why}</p>
            )}
            {judged && (
              <p className={`predict-judged ${judged.right ? 'right' : 'wrong'}`}>
                <span aria-hidden="true">{judged.right ? '✓ ' : '✕ '}</span>
                {judged.right ? 'Right' : 'Not what happened'}: the run shows {judged.shows}.
              </p>
            )}
            {question.answer && (
              <>
                <strong>Answer:</strong> <Breakable text={question.answer} />
              </>
            )}
            {outcome}
          </div>
          <p className="predict-hint">
            <button
              type="button"
              className="linkish"
              title="Back to the start with the question open (the next group, the next class)"
              onClick={() => {
                // Back to the start first: at the end of the run the answer would show again.
                if (restart) restart();
                else lab.actions.restart();
                update(key, { text: '', choice: null, locked: false, revealed: false });
                focusIn(ANSWER_FIELD);
              }}
            >
              Ask again
            </button>
          </p>
        </>
      ) : (
        // Locked in, waiting for the end: `predict-waiting` (projector mode leaves it to the
        // verdict's card, present.css).
        <p className={`predict-hint muted${p.locked ? ' predict-waiting' : ''}`}>
          {phase === 'edited'
            ? `Changed since it was opened: the answer is about ${original}.`
            : phase === 'edited-waiting'
              ? `Your edit changed the run: the question is about ${original}. This run’s outcome shows when it reaches its end.`
              : p.locked
                ? onLock
                  ? 'The answer appears when the run reaches its end.'
                  : playing
                    ? 'The answer appears when the run reaches its end.'
                    : 'Now press Play: the answer appears when the run reaches its end.'
                : 'The answer and the verdict appear when the run reaches its end.'}{' '}
          <button
            type="button"
            className="linkish"
            onClick={() => {
              update(key, { revealed: true });
              focusIn('.predict-answer');
            }}
            data-testid={ids.reveal ?? testIds.predictReveal}
          >
            Show the answer
          </button>
        </p>
      )}
    </section>
  );
}

/** The prediction locked in, and its "change" (until the reveal). */
export function YourPrediction({ text, onChange }: { text: string; onChange?: () => void }) {
  return (
    <p className="predict-yours" data-testid={testIds.predictYours}>
      <span className="muted">You predicted:</span> <q>{text}</q>{' '}
      {onChange && (
        <button type="button" className="linkish" onClick={onChange}>
          change
        </button>
      )}
    </p>
  );
}

/** A count judged by `judgeCount` (an answer that starts with one), as a marking. */
function countMarking(c: ReturnType<typeof judgeCount>): PredictionMarking | null {
  if (!c) return null;
  return {
    kind: c.right ? 'right' : 'wrong',
    expected: c.expected.toLocaleString('en-US'),
    said: c.said.toLocaleString('en-US'),
  };
}

/** One option of a multiple-choice question: a radio button and its text (the label). */
function ChoiceRadio({
  option,
  name,
  checked,
  onChoose,
}: {
  option: ChoiceOption;
  name: string;
  checked: boolean;
  onChoose: () => void;
}) {
  return (
    <label className="predict-option">
      <input
        type="radio"
        name={name}
        value={option.id}
        checked={checked}
        onChange={onChoose}
        data-choice={option.id}
      />{' '}
      <span>{option.text}</span>
    </label>
  );
}

/** The answer to a question that asks for one number: a field with the number's unit beside it. */
function NumberField({
  id,
  asked,
  value,
  describedBy,
  onChange,
}: {
  id: string;
  asked: AskedNumber;
  value: string;
  describedBy: string;
  onChange: (text: string) => void;
}) {
  const unit = asked.prefix ? null : (asked.units?.[0] ?? asked.what);
  return (
    <span className="predict-number">
      {asked.prefix && <span aria-hidden="true">{asked.prefix}</span>}
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        value={value}
        placeholder={asked.alsoAs ? `${asked.prefix ?? ''}… or ${asked.alsoAs.units[0]}s` : '…'}
        aria-describedby={describedBy || undefined}
        data-testid={testIds.predictInput}
        onChange={(e) => onChange(e.target.value)}
      />
      {unit && <span className="predict-unit">{unit}</span>}
    </span>
  );
}
