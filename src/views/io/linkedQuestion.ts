/**
 * The question a share link asks, in a module of its own: the question model
 * (src/views/library/question.ts) is the page's "Predict first", which the share-link reader
 * (./sharePrediction.ts, on every first load, the embed's too) does not need (issue 31).
 */
import { authorQuestion, type AskedQuestion } from '../library/question';
import type { LinkedPrediction } from './sharePrediction';

/**
 * The question a link asks, as "Predict first" shows it: the author's, else (no question written)
 * the generic multiple-choice one, judged against the run's verdict — as an embed's `predict=1`.
 * Null when the link asks nothing (`p=0`).
 */
export function linkedQuestion(link: LinkedPrediction): AskedQuestion | null {
  if (!link.prediction.ask) return null;
  return authorQuestion(link.key, link.prediction.question, link.prediction.answer);
}
