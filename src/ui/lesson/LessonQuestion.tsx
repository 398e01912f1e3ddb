import type { ResolvedStep } from '../../scenarios/lessons';
import type { RunView } from '../../views/run/runView';
import { judgeChoice, PREDICTION_CHOICES } from '../../views/library/question';
import { Breakable } from '../Breakable';
import { lessonTestIds } from './lessonTestIds';
import { optionLetter as letter } from '../../views/room/optionLetter';

/**
 * The step's question, as the room reads it on the projector: its options lettered, or what the
 * numbers it asks for count. Revealed: the right option marked and the answer — for the question
 * any run can be asked, the option the run's verdict names. Ids ("p-6..p-8") never wrap at their
 * hyphen: the text is the setup's `Breakable`.
 */
export function LessonQuestion({
  step,
  revealed,
  view,
}: {
  step: ResolvedStep;
  revealed: boolean;
  /** The run of this step, once it is ready (null before). */
  view: RunView | null;
}) {
  const q = step.question;
  const options: { id: string; text: string; right: boolean }[] = q.choices
    ? PREDICTION_CHOICES.map((c) => ({
        id: c.id,
        text: c.label,
        right: view !== null && judgeChoice(c.id, view.verdict.observed).right,
      }))
    : q.mark?.kind === 'choice'
      ? q.mark.options.map((o) => ({ id: o.id, text: o.text, right: o.right === true }))
      : [];
  const numbers = q.mark?.kind === 'numbers' ? q.mark.values.map((v) => v.what) : [];
  const answer = q.choices
    ? view && `The run shows ${judgeChoice('', view.verdict.observed).shows}.`
    : q.answer;
  return (
    <section className="lesson-question" aria-label="Question" data-testid={lessonTestIds.question}>
      <p className="lesson-question-text">
        <Breakable text={q.text} />
      </p>
      {options.length > 0 && (
        <ol className="lesson-options">
          {options.map((o, k) => (
            <li key={o.id} data-right={revealed && o.right ? '' : undefined}>
              <span className="lesson-letter">{letter(k)}</span> <Breakable text={o.text} />
              {revealed && o.right && <span className="lesson-right"> ✓</span>}
            </li>
          ))}
        </ol>
      )}
      {numbers.length > 0 && (
        <p className="lesson-numbers">
          Answer with {numbers.length === 1 ? 'a number' : 'numbers'}: {numbers.join(', ')}
        </p>
      )}
      {revealed && (
        <p className="lesson-answer" data-testid={lessonTestIds.answer} role="status">
          {answer != null ? <Breakable text={answer} /> : 'The run is still on its way…'}
        </p>
      )}
    </section>
  );
}
