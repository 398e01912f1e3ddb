/**
 * The scenario library against the built page: open a preset, predict, play, read the outcome —
 * and what the question hides until it is answered. Every exact count is worked out by hand in
 * the preset's comment (src/scenarios/library/*.ts) and pinned in its `expect` block; the
 * comments below repeat the derivation in short.
 * Finding and opening presets: library-navigation.spec.ts; layout and axe: library-layout.spec.ts.
 */
import { expect, test, testIds } from './fixtures';
import { copyRow, lib, playToEnd, presetInUrl } from './libraryTesting';
import { SameOriginAxeBuilder } from './support/axe';
import { shot } from './support/shots';

test('payment-resent-by-app from the library: predict, play, 1 duplicate (p-77); on-conflict: 0', async ({
  dash,
}) => {
  const { page } = dash;
  const l = lib(dash);
  await dash.byId(testIds.libraryOpen).click();
  await expect(l.dialog).toBeVisible();
  await l.card('payment-resent-by-app').click();
  await expect(l.dialog).toHaveCount(0);
  await dash.settled();

  // Opened at its first variant, in the URL, story beside the pipeline, prediction first.
  await expect(l.story).toHaveAttribute('data-preset', 'payment-resent-by-app');
  await expect(l.story).toHaveAttribute('data-variant', 'plain-insert');
  expect(presetInUrl(page)).toBe('payment-resent-by-app/plain-insert');
  await expect(dash.byId(testIds.predictQuestion)).toContainText('How many rows will p-77 have');
  await expect(l.answer).toHaveCount(0);
  // At time 0 (the entries stamped 0 ms are applied: idx may be above 0).
  expect((await dash.api('cursor')).t).toBe(0);

  // Answer the prediction, lock it in: still no answer before the run has been played.
  await dash.byId(testIds.predictInput).fill('Two rows: the re-send is a new record');
  await dash.byId(testIds.predictLock).click();
  await expect(dash.byId(testIds.predictYours)).toContainText('Two rows');
  await expect(l.answer).toHaveCount(0);

  // S06 plain INSERT: p-75..p-79 (100+250+40+75+310 = 775). p-77's ack comes after 3 s, the
  // service gives up at 2 s and sends p-77 again as a new record (offset 3). The consumer copies
  // all 6 records: 6 rows, p-77 twice → 1 duplicate, sum 775 + 40 = 815.
  await playToEnd(dash);
  expect(await dash.shown()).toMatchObject({ rows: 6, duplicates: 1, missing: 0, sum: 815 });
  await expect(dash.byId(testIds.counterDuplicates)).toContainText('1');
  await expect(copyRow(dash, 'p-77', 2)).toHaveCount(1);
  await expect(copyRow(dash, 'p-77', 2)).toContainText('2nd');
  // Played to the end: the answer is revealed.
  await expect(l.answer).toBeVisible();
  await expect(l.answer).toContainText('Two.');

  // One click to the on-conflict variant: a new run from time 0, paused.
  await l.variant('on-conflict-do-nothing').click();
  await dash.settled();
  await expect(l.story).toHaveAttribute('data-variant', 'on-conflict-do-nothing');
  expect(presetInUrl(page)).toBe('payment-resent-by-app/on-conflict-do-nothing');
  expect((await dash.api('cursor')).t).toBe(0);
  await expect(dash.byId(testIds.play)).toContainText('Play');
  // The question is about plain INSERT: on this variant its answer is not shown, and the box
  // says which variant it is about.
  await expect(l.answer).toHaveCount(0);
  await expect(l.story).toContainText('This question is about the “plain INSERT” variant.');

  // ON CONFLICT (id) DO NOTHING: the second p-77 conflicts and is skipped: 5 rows, 775.
  await playToEnd(dash);
  expect(await dash.shown()).toMatchObject({ rows: 5, duplicates: 0, missing: 0, sum: 775 });
  await expect(copyRow(dash, 'p-77', 2)).toHaveCount(0);
  await expect(copyRow(dash, 'p-77', 1)).toHaveCount(1);

  // The variant switch was one undoable edit: Ctrl+Z goes back to plain INSERT.
  await page.locator('h1').click();
  await page.keyboard.press('Control+z');
  await dash.settled();
  await expect(l.story).toHaveAttribute('data-variant', 'plain-insert');
  expect(presetInUrl(page)).toBe('payment-resent-by-app/plain-insert');
  // Back on the question's variant, its answer is shown again.
  await expect(l.answer).toBeVisible();
  expect(dash.errors).toEqual([]);
});

test('flink-checkpoint-replay: plain sink 50 duplicates, 2PC read_committed 0', async ({
  dash,
}) => {
  const l = lib(dash);
  await dash.byId(testIds.libraryOpen).click();
  await l.search.fill('flink');
  await l.card('flink-checkpoint-replay').click();
  await dash.settled();
  await expect(l.story).toHaveAttribute('data-variant', 'plain-sink');

  // S07: e1..e250 (10·i, sum 313,750); checkpoint 1 at offset 200; the TaskManager dies after
  // e201..e250 were processed and written. Restore → replay e201..e250. Plain JDBC INSERT:
  // 300 rows, 50 duplicates, sum 313,750 + Σ10·i (201..250) = 426,500.
  // Play and the run's end wait for the preset's question (issue 24): skipped first.
  await dash.skipQuestion();
  await dash.toEnd();
  expect(await dash.shown()).toMatchObject({ rows: 300, duplicates: 50, missing: 0, sum: 426_500 });
  await expect(dash.byId(testIds.counterDuplicates)).toContainText('50');

  // KafkaSink EXACTLY_ONCE, read_committed reader: the pre-crash writes sit in a transaction
  // that the restore aborts; the reader skips them: 250 rows, 0 duplicates, 313,750.
  await l.variant('2pc-read-committed').click();
  await dash.settled();
  await expect(l.story).toHaveAttribute('data-variant', '2pc-read-committed');
  await dash.toEnd();
  expect(await dash.shown()).toMatchObject({ rows: 250, duplicates: 0, missing: 0, sum: 313_750 });
  await expect(dash.byId(testIds.counterDuplicates)).toContainText('0');
  expect(dash.errors).toEqual([]);
});

test('predict first: the verdict, the explanations, the final fates and the story wait for the answer', async ({
  dash,
}) => {
  const { page } = dash;
  const l = lib(dash);
  const hidden = (what: string) =>
    page.locator(`[data-testid="${testIds.outcomeHidden}"][data-what="${what}"]`);
  await dash.goto('./?preset=lost-ack-retry/idempotence-off');
  // Asked and not answered: every panel that would give the outcome away says it is hidden.
  for (const what of ['verdict', 'why', 'fates', 'story'])
    await expect(hidden(what)).toContainText(
      'Hidden until you answer the prediction and play the run to its end.',
    );
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);
  await expect(dash.byId(testIds.explanation)).toHaveCount(0);
  await expect(dash.byId(testIds.storyText)).toHaveCount(0);
  await expect(page.getByText('claimed exactly-once')).toHaveCount(0);
  await expect(
    dash.byId(testIds.ledger).getByLabel('only lost and duplicated events (final)'),
  ).toBeDisabled();
  // The whole run's diagram draws the duplicate: hidden too (the topology is not).
  await dash.byId(testIds.diagramsToggle).click();
  await expect(hidden('diagrams')).toBeVisible();
  await dash.byId(testIds.diagramsToggle).click();
  // Locked in: still hidden until the run has been watched to its end.
  await dash.byId(testIds.predictInput).fill('11 rows, 580');
  await dash.byId(testIds.predictLock).click();
  await expect(hidden('verdict')).toContainText('Hidden until the run reaches its end.');
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);
  // S01 with idempotence off: the retry of e3 is appended again → at-least-once, not the
  // exactly-once the scenario claims; one explanation, for e3.
  await playToEnd(dash);
  await expect(l.answer).toContainText('11 rows summing to 580');
  // Marked: rows, then the sum (the question used to show its answer neither right nor wrong).
  await expect(l.answer).toHaveAttribute('data-judged', 'right');
  await expect(l.answer).toContainText('Right: 11 and 580.');
  await expect(dash.byId(testIds.outcomeHidden)).toHaveCount(0);
  await expect(dash.byId(testIds.verdict)).toHaveAttribute('data-observed', 'at-least-once');
  await expect(dash.byId(testIds.verdict)).toContainText(
    'Observed at-least-once, claimed exactly-once: broken',
  );
  await expect(dash.byId(testIds.explanation)).toHaveCount(1);
  await expect(dash.byId(testIds.explanation)).toHaveAttribute('data-fate', 'duplicated');
  await expect(dash.byId(testIds.explanation)).toHaveAttribute('data-events', 'e3');
  await expect(dash.byId(testIds.storyText)).toContainText('An order service writes ten events');
  // The reveal stays when the cursor goes back.
  await dash.toStart();
  await expect(dash.byId(testIds.verdict)).toHaveAttribute('data-observed', 'at-least-once');

  // Another preset, skipped with the keyboard: "Show the answer" tells the answer; the final
  // verdict waits for the end of the run, and "Reveal now" shows it at once.
  await dash.goto('./?preset=at-most-once');
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);
  await hidden('verdict').getByRole('button', { name: 'Show the answer' }).focus();
  await page.keyboard.press('Enter');
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);
  await dash.byId(testIds.outcomeRevealNow).first().focus();
  await page.keyboard.press('Enter');
  await expect(dash.byId(testIds.verdict)).toHaveAttribute('data-observed', 'at-most-once');
  await expect(l.answer).toContainText('18: p-9 and p-10');
  await expect(dash.byId(testIds.outcomeHidden)).toHaveCount(0);
  expect(dash.errors).toEqual([]);
});

test('an edit to an unanswered preset keeps the outcome hidden until the changed run ends; undo asks again', async ({
  dash,
}) => {
  const { page } = dash;
  const l = lib(dash);
  const hidden = (what: string) =>
    page.locator(`[data-testid="${testIds.outcomeHidden}"][data-what="${what}"]`);
  await dash.goto('./?preset=lost-ack-retry/idempotence-off');
  // A newcomer crashed consumer-0 before its commit, question unanswered: the verdict, the story
  // and the why showed at once. (Unanswered, the run waits at its start: stepping is refused.)
  await dash.timeline().focus();
  await page.keyboard.press('ArrowRight');
  expect((await dash.api('cursor')).idx).toBe(0);
  await dash.fault('consumer-0', 'crash-before-commit');
  await expect(l.story).toHaveAttribute('data-edited', 'true');
  for (const what of ['verdict', 'why', 'fates', 'story'])
    await expect(hidden(what)).toContainText(
      'Changed since it was opened: hidden until this run reaches its end.',
    );
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);
  await expect(dash.byId(testIds.explanation)).toHaveCount(0);
  await expect(dash.byId(testIds.storyText)).toHaveCount(0);
  await expect(dash.byId(testIds.predict)).toContainText(
    'Your edit changed the run: the question is about the preset as shipped. This run’s outcome shows when it reaches its end.',
  );
  // Ctrl+Z: the preset as shipped, its question asked again.
  await page.locator('h1').click();
  await page.keyboard.press('Control+z');
  await dash.settled();
  await expect(l.story).toHaveAttribute('data-edited', 'false');
  await expect(hidden('verdict')).toContainText(
    'Hidden until you answer the prediction and play the run to its end.',
  );
  await expect(dash.byId(testIds.predictInput)).toBeVisible();
  // The claimed guarantee switched, unanswered: hidden as well, until the run is played to its end.
  await dash.toStart();
  await dash.setGuarantee('At-most-once');
  await expect(hidden('verdict')).toContainText('hidden until this run reaches its end');
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);
  await expect(dash.byId(testIds.storyText)).toHaveCount(0);
  await playToEnd(dash);
  await expect(dash.byId(testIds.outcomeHidden)).toHaveCount(0);
  await expect(dash.byId(testIds.verdict)).toBeVisible();
  await expect(dash.byId(testIds.storyText)).toBeVisible();
  // The answer is about the preset as shipped: not given by the changed run's end.
  await expect(l.answer).toHaveCount(0);
  await page.locator('h1').click();
  await page.keyboard.press('Control+z');
  await dash.settled();
  await expect(hidden('verdict')).toContainText('Hidden until you answer the prediction');
  await expect(dash.byId(testIds.predictInput)).toBeVisible();
  expect(dash.errors).toEqual([]);
});

test('a preset opened while another run stands at its end still asks its question', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  const l = lib(dash);
  await page.goto('./?preset=flink-checkpoint-replay/plain-sink');
  await dash.settled();
  // Unanswered, End does not jump (the final counters would answer the question) and says why;
  // answered, it does, and the outcome shows.
  // Play and End say they wait (aria-disabled); a click still reaches them (Playwright waits for
  // an aria-disabled button to be enabled; a user's click is not held back: forced).
  await expect(dash.byId(testIds.toEnd)).toHaveAttribute('aria-disabled', 'true');
  await dash.byId(testIds.toEnd).click({ force: true });
  await expect(page.getByText('Waits for your prediction')).toBeVisible();
  await dash.byId(testIds.play).click({ force: true });
  await expect(dash.byId(testIds.play)).toHaveAttribute('aria-pressed', 'false');
  expect((await dash.api('cursor')).idx).toBe(0);
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);
  await dash.byId(testIds.predictInput).fill('300 rows');
  await dash.byId(testIds.predictLock).click();
  // Answered: the refusal leaves the status line.
  await expect(page.getByText('Waits for your prediction')).toHaveCount(0);
  await dash.byId(testIds.toEnd).click();
  await expect(dash.byId(testIds.verdict)).toBeVisible();
  await dash.byId(testIds.libraryOpen).click();
  await l.card('spark-batch-replay').click();
  await dash.settled();
  await expect(l.story).toHaveAttribute('data-preset', 'spark-batch-replay');
  // The new run starts at 0: its answer and verdict wait for the prediction.
  await expect(l.answer).toHaveCount(0);
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);
  await expect(dash.byId(testIds.predictQuestion)).toBeVisible();
  expect(dash.errors).toEqual([]);
});

test('"Show the answer" without a prediction: the empty box gives way to one line; "Ask again" brings it back, by keyboard', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  const l = lib(dash);
  const box = dash.byId(testIds.predict);
  await dash.goto('./?preset=lost-ack-retry/idempotence-off');
  await expect(dash.byId(testIds.predictInput)).toBeVisible();
  await expect(dash.byId(testIds.predictSkipped)).toHaveCount(0);
  // By keyboard: the verdict's "Show the answer", focused, Enter.
  await dash.page.locator(`[data-what="verdict"] [data-testid="${testIds.outcomeShow}"]`).focus();
  await page.keyboard.press('Enter');
  await expect(l.answer).toContainText(
    'Answer: 11 rows summing to 580: the retry appended e3 a second time, and the consumer copied both.',
  );
  // No unanswered box and "Lock in" beside the answer: one line says it was skipped.
  await expect(dash.byId(testIds.predictInput)).toHaveCount(0);
  await expect(dash.byId(testIds.predictLock)).toHaveCount(0);
  await expect(dash.byId(testIds.predictSkipped)).toHaveText('You skipped the prediction.');
  await expect(box.getByRole('button')).toHaveText(['Ask again']);
  // "Ask again" is a button (Enter presses it): the box is back, empty, the focus in it.
  await box.getByRole('button', { name: 'Ask again' }).focus();
  await page.keyboard.press('Enter');
  await expect(dash.byId(testIds.predictSkipped)).toHaveCount(0);
  await expect(l.answer).toHaveCount(0);
  await expect(dash.byId(testIds.predictInput)).toBeFocused();
  await expect(dash.byId(testIds.predictLock)).toBeDisabled();
  expect(dash.errors).toEqual([]);
});

test('poll-timeout-slow-batch: the consumer card says it left the group while its batch outlasts max.poll.interval.ms, and the why names it', async ({
  unopenedDash: dash,
}) => {
  await dash.goto('./?preset=poll-timeout-slow-batch');
  await dash.showOutcome();
  const left = dash.byId(testIds.leftGroup);
  // The first poll at 1,006 ms: left at 5 min 01.006 s, removed 45 s later; gone once it polls again.
  await dash.api('runTo', 200_000);
  await expect(left).toHaveCount(0);
  await dash.api('runTo', 320_000);
  await expect(left).toContainText('left at 5 min 01.006 s (poll timeout)');
  await expect(left).toContainText('removed at 5 min 46.006 s');
  await dash.toEnd();
  await expect(left).toHaveCount(0);
  await expect(dash.byId(testIds.explanation).first()).toContainText(
    'spent longer than max.poll.interval.ms (300000 ms)',
  );
});

test('the setup comes before the question; choices are radio buttons; numbers take their unit; an edit hides the answer', async ({
  dash,
}) => {
  test.setTimeout(120_000);
  const { page } = dash;
  const l = lib(dash);
  await page.setViewportSize({ width: 1280, height: 720 });

  // MERGE: the setup states the table and the batch, visible before any answer.
  await dash.goto('./?preset=merge-duplicate-source');
  const setup = dash.byId(testIds.storySetup);
  await expect(setup).toBeVisible();
  await expect(setup).toContainText('The table holds {o1: 100}');
  await expect(setup).toContainText('(o1, 120), (o1, 130) and a new order (o2, 50)');
  // Four radio buttons, by keyboard: the first focused, ↓ moves the choice, then Lock in.
  const radios = dash.byId(testIds.predictOptions).getByRole('radio');
  await expect(radios).toHaveCount(4);
  await expect(dash.byId(testIds.predictLock)).toBeDisabled();
  // The setup and the choices, checked alone (the whole page is the other axe tests' work).
  const axe = await new SameOriginAxeBuilder(page)
    .include(`[data-testid="${testIds.storyPanel}"]`)
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' | ')}`)).toEqual(
    [],
  );
  await radios.first().focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  await expect(radios.nth(1)).toBeChecked();
  await shot(page, 'teach-questions-choice');
  await page.keyboard.press('Tab');
  await expect(dash.byId(testIds.predictLock)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dash.byId(testIds.predictYours)).toContainText('the last update of o1 wins');
  await dash.byId(testIds.predictReveal).click();
  // The wrong choice: marked wrong, with its why not.
  await expect(l.answer).toHaveAttribute('data-judged', 'wrong');
  await expect(dash.byId(testIds.predictWhyNot)).toContainText('cardinality violation');
  await shot(page, 'teach-questions-why-not');

  // The card charge: the amount is in the setup; "2 charges" is right ($40 charged twice).
  await dash.goto('./?preset=card-charge-idempotency/key-per-attempt');
  await expect(dash.byId(testIds.storySetup)).toContainText('p-77, $40');
  await dash.byId(testIds.predictInput).fill('2 charges');
  await dash.byId(testIds.predictLock).click();
  await dash.byId(testIds.predictReveal).click();
  await expect(l.answer).toHaveAttribute('data-judged', 'right');
  await expect(l.answer).toContainText('Right: $80.');

  // Two numbers asked, "twice" given: not locked in, and it says what is missing.
  await dash.goto('./?preset=lost-ack-retry/idempotence-off');
  await dash.byId(testIds.predictInput).fill('twice');
  await dash.byId(testIds.predictLock).click();
  await expect(dash.byId(testIds.predictProblem)).toHaveText(
    'Not locked in: The question asks for 2 numbers (rows and sum); your prediction gives 1.',
  );
  await expect(dash.byId(testIds.predictYours)).toHaveCount(0);
  await dash.byId(testIds.predictInput).fill('11 rows, sum 580');
  await dash.byId(testIds.predictLock).click();
  await dash.byId(testIds.predictReveal).click();
  await expect(l.answer).toHaveAttribute('data-judged', 'right');
  // An edit after the reveal: the preset's answer is not shown for the changed run.
  await dash.setGuarantee('Exactly-once');
  await expect(l.answer).toHaveCount(0);
  await expect(dash.byId(testIds.predictAnswerEdited)).toContainText(
    'Your edit changed the run: the answer describes the preset as shipped, not this run',
  );
  await shot(page, 'teach-questions-edited');
  expect(dash.errors).toEqual([]);
});
