/**
 * What an embedded player asks with `predict=1`, and of which run. Pure: tested without a browser.
 * The asking itself (lock in, reveal at the end of the run, hide the verdict and the explanations
 * until then) is the page's "Predict first" (src/ui/library), fed with these.
 */
import { loadedPreset } from '../../scenarios/presetCatalog';
import { questionVariant } from '../../views/library/library';
import {
  authorQuestion,
  genericQuestion,
  presetQuestion,
  type AskedQuestion,
} from '../../views/library/question';
import type { EmbedOptions } from './embedOptions';
import { EMBED_PREDICTION_KEY } from './embedSubject';
import { testIds } from '../testIds';

/** The test ids of an embed's question box (the streaming and the batch player's). */
export const EMBED_PREDICT_IDS = {
  box: testIds.embedPredict,
  reveal: testIds.embedReveal,
  answer: testIds.embedAnswer,
} as const;

/**
 * The question an embed asks: the author's (`q=`, `a=`), else its preset's when the embedded
 * variant is the one the preset's question is about, else the question any run can be asked
 * (multiple choice, judged against the run's verdict).
 *
 * A preset's question about another variant is not asked — on the page that variant shows a note
 * and a link to the question's variant instead. An author who embeds one variant with `predict=1`
 * wants a prediction about that run: the preset's answer would describe another run (the wrong
 * lesson), a link that swapped in the other variant would replace the run the author chose (and
 * captioned), and no question at all would drop the `predict=1` they asked for. The choices
 * ("every event exactly once", "some twice", …) are a question about the run on screen, and the
 * reveal can say whether the reader's choice matched it.
 */
export function embedQuestion(
  options: Pick<EmbedOptions, 'question' | 'answer'>,
  presetRef: string | null,
): AskedQuestion {
  const key = EMBED_PREDICTION_KEY;
  if (options.question) return authorQuestion(key, options.question, options.answer);
  const p = presetRef ? loadedPreset(presetRef) : undefined;
  if (p && questionVariant(p.preset) === p.variant.id) return presetQuestion(key, p.preset);
  return genericQuestion(key);
}
