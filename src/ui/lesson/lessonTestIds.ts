/** Test ids of the presenter view and its notes window, shared with e2e/lesson.spec.ts. */
export const lessonTestIds = {
  presenter: 'lesson-presenter',
  stepCount: 'lesson-step-count',
  stepTitle: 'lesson-step-title',
  /** The live region that says the step moved to: "Step 2 of 10: <its title>". */
  stepSaid: 'lesson-step-said',
  setup: 'lesson-setup',
  question: 'lesson-question',
  answer: 'lesson-answer',
  status: 'lesson-status',
  next: 'lesson-next',
  previous: 'lesson-previous',
  reveal: 'lesson-reveal',
  details: 'lesson-details',
  notes: 'lesson-notes',
  notesNote: 'lesson-notes-note',
  refused: 'lesson-refused',
  challengeWhy: 'lesson-challenge-why',
  /** The step's challenge and where the students open it, once its answer shows. */
  challengeLine: 'lesson-challenge-line',
  /** Copy the link of the lesson's own challenge (it travels whole, too long to type). */
  challengeCopy: 'lesson-challenge-copy',
} as const;
