/**
 * Where a prediction box's answer is typed or chosen: focused after "change" and "Ask again"
 * (./Prediction.tsx), and by the page's "Skip to the question" (./SkipToQuestion.tsx).
 */
export const ANSWER_FIELD =
  'textarea, .predict-number input, .predict-options input:checked, .predict-options input, .predict-choices button';
