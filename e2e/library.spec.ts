/**
 * The scenario library against the built page: find a preset, open it, predict, play, switch
 * variants — by mouse, by keyboard only and by URL. Every exact count is worked out by hand in
 * the preset's comment (src/scenarios/library/*.ts) and pinned in its `expect` block; the
 * comments below repeat the derivation in short.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, testIds, type Dashboard } from './fixtures';
import { presets } from '../src/scenarios';
import { questionVariant } from '../src/views/library/library';

/** The library's parts, by test id. */
function lib(dash: Dashboard) {
  const { page } = dash;
  return {
    dialog: dash.byId(testIds.libraryDialog),
    search: dash.byId(testIds.librarySearch),
    cards: dash.byId(testIds.libraryCard),
    card: (id: string) =>
      page.locator(`[data-testid="${testIds.libraryCard}"][data-preset="${id}"]`),
    story: dash.byId(testIds.storyPanel),
    variant: (id: string) =>
      page.locator(`[data-testid="${testIds.storyVariant}"][data-variant="${id}"]`),
    answer: dash.byId(testIds.predictAnswer),
  };
}

/** The `?preset=` of the page's URL. */
function presetInUrl(page: Page): string | null {
  return new URL(page.url()).searchParams.get('preset');
}

/** Play to the end with the transport, as a user does: speed slider to its top, then Play. */
async function playToEnd(dash: Dashboard): Promise<void> {
  await dash.byId(testIds.speed).focus();
  await dash.page.keyboard.press('End');
  await dash.byId(testIds.play).click();
  await expect(dash.byId(testIds.counterMissing)).toHaveAttribute('data-final', 'true');
  await dash.page.waitForFunction(() => {
    const c = window.__deliveryLab!.cursor();
    return c.idx >= c.n && c.t >= c.endTime;
  });
}

/** The sink rows of one business event's n-th copy. */
function copyRow(dash: Dashboard, event: string, copy: number) {
  return dash
    .byId(testIds.sinkTable)
    .locator(`[data-testid="${testIds.sinkRow}"][data-event="${event}"][data-copy="${copy}"]`);
}

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
  // The prediction belongs to the preset: still answered and revealed.
  await expect(l.answer).toBeVisible();

  // ON CONFLICT (payment_id) DO NOTHING: the second p-77 conflicts and is skipped: 5 rows, 775.
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

test('a URL opens its preset and variant; a bare id opens the first variant (Spark runs)', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  const l = lib(dash);
  await page.goto('./?preset=lost-ack-retry/acks-1');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await expect(l.story).toHaveAttribute('data-preset', 'lost-ack-retry');
  await expect(l.story).toHaveAttribute('data-variant', 'acks-1');
  // S01 with acks=1: idempotence silently off, the retry of e3 is appended again:
  // 11 rows, 1 duplicate, 550 + 30 = 580.
  await dash.toEnd();
  expect(await dash.shown()).toMatchObject({ rows: 11, duplicates: 1, missing: 0, sum: 580 });

  // A bare id: the default variant, and the URL says which.
  await page.goto('./?preset=spark-batch-replay');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await expect(l.story).toHaveAttribute('data-variant', 'append');
  await expect.poll(() => presetInUrl(page)).toBe('spark-batch-replay/append');
  // S16: e1..e30 (sum 4,650), 10 per micro-batch; the driver dies after batch 2's write and
  // before its commit-log entry; batch 2 (e21..e30, 2,550) runs again. Append: 40 rows, 10
  // duplicates, 7,200. Delta with txnAppId/txnVersion skips the rerun: 30 rows, 0, 4,650.
  await playToEnd(dash);
  expect(await dash.shown()).toMatchObject({ rows: 40, duplicates: 10, missing: 0, sum: 7200 });
  await l.variant('delta-txn').click();
  await dash.settled();
  await playToEnd(dash);
  expect(await dash.shown()).toMatchObject({ rows: 30, duplicates: 0, missing: 0, sum: 4650 });
  expect(dash.errors).toEqual([]);
});

test('predict first: the verdict, the explanations, the final fates and the story wait for the answer', async ({
  dash,
}) => {
  const { page } = dash;
  const l = lib(dash);
  const hidden = (what: string) =>
    page.locator(`[data-testid="${testIds.outcomeHidden}"][data-what="${what}"]`);
  await page.goto('./?preset=lost-ack-retry/idempotence-off');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
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
  await page.goto('./?preset=at-most-once');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
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
  await page.goto('./?preset=lost-ack-retry/idempotence-off');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  // A newcomer stepped to event 58 and crashed consumer-0 before its commit, question unanswered:
  // the verdict, the story and the why showed at once.
  await dash.timeline().focus();
  for (let i = 0; i < 58; i++) await page.keyboard.press('ArrowRight');
  expect((await dash.api('cursor')).idx).toBe(58);
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
  await dash.byId(testIds.toEnd).click();
  await expect(page.getByText('The answer waits: lock in a prediction first')).toBeVisible();
  expect((await dash.api('cursor')).idx).toBe(0);
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);
  await dash.byId(testIds.predictInput).fill('300 rows');
  await dash.byId(testIds.predictLock).click();
  // Answered: the refusal leaves the status line.
  await expect(page.getByText('The answer waits: lock in a prediction first')).toHaveCount(0);
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

test('Back and Forward walk the presets chosen; an edit adds no entry and stays one undo away', async ({
  dash,
}) => {
  const { page } = dash;
  const l = lib(dash);
  const picker = dash.byId(testIds.scenarioPicker);
  // Three presets from the library, clicked: each a page of its own (they used to replace the
  // address, and Back after three of them went to about:blank). Clicks, as a reader's: Chromium's
  // Back skips the entries a page adds without a user's gesture.
  for (const id of ['at-most-once', 'lost-ack-retry', 'spark-batch-replay']) {
    await dash.byId(testIds.libraryOpen).click();
    await l.card(id).click();
    await dash.settled();
    await expect(l.story).toHaveAttribute('data-preset', id);
  }
  // An edit of the last one is not a page: Back goes to the preset before it.
  await dash.byId(testIds.seedInput).fill('9');
  await dash.byId(testIds.seedInput).press('Enter');
  await dash.settled();
  expect(((await dash.api('scenario')) as { seed?: number }).seed).toBe(9);

  await page.goBack();
  await expect(l.story).toHaveAttribute('data-preset', 'lost-ack-retry');
  await page.goBack();
  await dash.settled();
  await expect(l.story).toHaveAttribute('data-preset', 'at-most-once');
  await expect(picker).toHaveValue('at-most-once/default');
  await expect.poll(() => presetInUrl(page)).toBe('at-most-once/default');
  await expect(dash.byId(testIds.runStatus)).toContainText('Opened from the browser history');
  // Still the app, and the first preset as shipped: its question is asked.
  await expect(dash.byId(testIds.appHeading)).toBeVisible();
  await expect(dash.byId(testIds.predictInput)).toBeVisible();

  await page.goForward();
  await dash.settled();
  await expect(l.story).toHaveAttribute('data-preset', 'lost-ack-retry');
  await expect(l.story).toHaveAttribute('data-variant', 'idempotence-off');
  await expect.poll(() => presetInUrl(page)).toBe('lost-ack-retry/idempotence-off');
  // Forward again: the spark preset as it was left (seed 9).
  await page.goForward();
  await dash.settled();
  await expect(l.story).toHaveAttribute('data-preset', 'spark-batch-replay');
  expect(((await dash.api('scenario')) as { seed?: number }).seed).toBe(9);
  // Back, then undo: the edited scenario left behind comes back.
  await page.goBack();
  await dash.settled();
  await expect(l.story).toHaveAttribute('data-preset', 'lost-ack-retry');
  await page.locator('h1').click();
  await page.keyboard.press('Control+z');
  await dash.settled();
  await expect(l.story).toHaveAttribute('data-preset', 'spark-batch-replay');
  expect(((await dash.api('scenario')) as { seed?: number }).seed).toBe(9);
  expect(dash.errors).toEqual([]);
});

test('an unknown ?preset= shows a notice and keeps the workspace', async ({ dash }) => {
  const { page } = dash;
  // The workspace the page opens with when the URL asks for nothing.
  const before = await dash.api('scenario');
  await page.goto('./?preset=no-such-preset/none');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  const notice = page.getByRole('alert').filter({ hasText: 'no-such-preset' });
  await expect(notice).toBeVisible();
  expect(await dash.api('scenario')).toEqual(before);
  // The address bar no longer claims the unknown preset.
  await expect.poll(() => presetInUrl(page)).not.toBe('no-such-preset/none');
  // An unknown variant of a known preset names the variants there are.
  await page.goto('./?preset=payment-resent-by-app/upsert');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await expect(page.getByRole('alert').filter({ hasText: 'payment-resent-by-app' })).toBeVisible();
  expect(await dash.api('scenario')).toEqual(before);
});

test('search filters the cards and the groups', async ({ dash }) => {
  const l = lib(dash);
  await dash.byId(testIds.libraryOpen).click();
  // 3 foundation presets, the 23 library presets and the 7 batch jobs.
  await expect(l.cards).toHaveCount(33);
  await expect(dash.byId(testIds.libraryGroup)).toHaveCount(8);
  // Every card says which guarantee it illustrates in words.
  await expect(l.card('payment-resent-by-app')).toContainText('at-least-once');
  await expect(l.card('flink-checkpoint-replay')).toContainText('exactly-once');

  // "flink" is in the three Flink presets and in the card-charge story (an email in a replayed
  // Flink operator).
  await l.search.fill('flink');
  await expect(l.cards).toHaveCount(4);
  await expect(dash.byId(testIds.libraryCount)).toHaveAttribute('data-matched', '4');
  await expect(dash.byId(testIds.libraryGroup)).toHaveCount(2);
  // Every word must match: "checkpoint" is not in the card-charge story.
  await l.search.fill('flink checkpoint');
  await expect(l.cards).toHaveCount(2);
  await expect(l.card('card-charge-idempotency')).toHaveCount(0);
  await l.search.fill('xyzzy');
  await expect(l.cards).toHaveCount(0);
  await expect(l.dialog).toContainText('No preset matches “xyzzy”');
  await l.search.fill('');
  await expect(l.cards).toHaveCount(33);
  await dash.byId(testIds.libraryClose).click();
  await expect(l.dialog).toHaveCount(0);
  await expect(dash.byId(testIds.libraryOpen)).toBeFocused();
});

test('only the card list scrolls: a wheel past its end moves neither the dialog nor the page', async ({
  dash,
}) => {
  const { page } = dash;
  const l = lib(dash);
  await dash.byId(testIds.libraryOpen).click();
  await expect(l.cards).toHaveCount(33);
  const list = l.dialog.locator('.library-groups');
  const box = (await l.cards.first().boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  // Past the end of the list: the extra turns of the wheel must go nowhere.
  for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 600);
  await expect
    .poll(() => list.evaluate((g) => g.scrollHeight - g.clientHeight - g.scrollTop))
    .toBeLessThanOrEqual(1);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, 600);
  await page.waitForTimeout(200);
  const scrolled = await l.dialog.evaluate((d) => ({
    dialog: d.scrollTop,
    dialogOverflow: d.scrollHeight - d.clientHeight,
    page: window.scrollY,
  }));
  expect(scrolled).toEqual({ dialog: 0, dialogOverflow: 0, page: 0 });
  // The title and the search stay where they were.
  await expect(l.dialog.getByRole('heading', { name: 'Scenario library' })).toBeInViewport();
  await expect(l.search).toBeInViewport();
});

test('keyboard only: open the library, find a preset, open it, switch variant, Escape', async ({
  dash,
}) => {
  const { page } = dash;
  const l = lib(dash);
  await page.locator('h1').click();
  // L opens the library with the search box focused.
  await page.keyboard.press('l');
  await expect(l.dialog).toBeVisible();
  await expect(l.search).toBeFocused();
  await page.keyboard.type('flink');
  // The three Flink stories and the card charge (its Flink operator sends the email).
  await expect(l.cards).toHaveCount(4);
  // ↓ to the first card, → to the second, Enter opens it.
  await page.keyboard.press('ArrowDown');
  await expect(l.card('flink-checkpoint-replay')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(l.card('flink-commit-phase-crash')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(l.dialog).toHaveCount(0);
  await dash.settled();
  await expect(l.story).toHaveAttribute('data-preset', 'flink-commit-phase-crash');
  // It opens on the variant its question is about; focus lands on the story, and the next tab
  // stop is the open variant.
  await expect(l.story).toHaveAttribute('data-variant', 'after-transaction-timeout');
  await expect(dash.byId(testIds.storyTitle)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(l.variant('after-transaction-timeout')).toBeFocused();
  const at = await dash.api('cursor');
  // An arrow moves between variants without loading one, nor stepping the playback.
  await page.keyboard.press('ArrowLeft');
  await expect(l.variant('recovered-in-time')).toBeFocused();
  await expect(l.story).toHaveAttribute('data-variant', 'after-transaction-timeout');
  expect(await dash.api('cursor')).toEqual(at);
  // Enter opens the focused one; → and Enter go back.
  await page.keyboard.press('Enter');
  await dash.settled();
  await expect(l.story).toHaveAttribute('data-variant', 'recovered-in-time');
  await page.keyboard.press('ArrowRight');
  await expect(l.variant('after-transaction-timeout')).toBeFocused();
  await page.keyboard.press('Enter');
  await dash.settled();
  await expect(l.story).toHaveAttribute('data-variant', 'after-transaction-timeout');
  await expect(l.variant('after-transaction-timeout')).toBeFocused();
  // S08 after transaction.timeout.ms: the coordinator aborted T2 (e201..e250) while the job was
  // down; the restored source is past them: 200 rows (sum 201,000), 50 lost.
  await dash.toEnd();
  expect(await dash.shown()).toMatchObject({ rows: 200, duplicates: 0, missing: 50, sum: 201_000 });

  // Escape closes the library and gives focus back to where it was.
  await l.variant('after-transaction-timeout').focus();
  await page.keyboard.press('l');
  await expect(l.search).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(l.dialog).toHaveCount(0);
  await expect(l.variant('after-transaction-timeout')).toBeFocused();
  expect(dash.errors).toEqual([]);
});

test('"Show the answer" without a prediction: the empty box gives way to one line; "Ask again" brings it back, by keyboard', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  const l = lib(dash);
  const box = dash.byId(testIds.predict);
  await page.goto('./?preset=lost-ack-retry/idempotence-off');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
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

test('axe: the open library and the story panel have no serious violation', async ({ dash }) => {
  test.setTimeout(90_000);
  const { page } = dash;
  const l = lib(dash);
  const serious = async () =>
    (await new AxeBuilder({ page }).analyze()).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  await dash.byId(testIds.libraryOpen).click();
  await expect(l.cards.first()).toBeVisible();
  expect(await serious()).toEqual([]);
  await l.card('consume-transform-produce').click();
  await dash.settled();
  await dash.byId(testIds.predictReveal).click();
  await expect(l.answer).toBeVisible();
  expect(await serious()).toEqual([]);
});

test('the story: a band above the counters while its question is asked, then beside the pipeline at 1280 px, above it at a larger font — never over it', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  const l = lib(dash);
  await page.goto('./?preset=flink-checkpoint-replay/plain-sink');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  const box = async () => ({
    story: (await l.story.boundingBox())!,
    pipeline: (await dash.byId(testIds.pipeline).boundingBox())!,
  });
  // Asked: a band across the page above the counters, the setup left of the question.
  await expect(l.story).toHaveAttribute('data-asking', 'true');
  let b = await box();
  const counters = (await dash.byId(testIds.counters).boundingBox())!;
  expect(b.story.y + b.story.height).toBeLessThanOrEqual(counters.y);
  expect(b.story.width).toBeGreaterThan(b.pipeline.width * 0.9);
  const setup = (await dash.byId(testIds.storySetup).boundingBox())!;
  const question = (await dash.byId(testIds.predict).boundingBox())!;
  expect(question.x).toBeGreaterThanOrEqual(setup.x + setup.width);
  // Answered: the story goes beside the pipeline.
  await dash.byId(testIds.predictReveal).click();
  await expect(l.story).toHaveAttribute('data-asking', 'false');
  b = await box();
  // Beside: to the right of the pipeline, its top within the pipeline's rows.
  expect(b.story.x).toBeGreaterThanOrEqual(b.pipeline.x + b.pipeline.width);
  expect(b.story.y).toBeLessThan(b.pipeline.y + b.pipeline.height);
  // 150 %: no room for both side by side — the story moves above the pipeline.
  for (let k = 0; k < 3; k++) await dash.byId(testIds.fontLarger).click();
  await expect(dash.byId(testIds.app)).toHaveAttribute('style', /--scale: 1.5/);
  b = await box();
  expect(b.story.y + b.story.height).toBeLessThanOrEqual(b.pipeline.y);
  // Folded away, then back: the pipeline has the whole width meanwhile.
  await dash.byId(testIds.storyToggle).click();
  await expect(l.story).toHaveCount(0);
  await dash.byId(testIds.storyToggle).click();
  await expect(l.story).toBeVisible();
  await expect(dash.byId(testIds.storyTitle)).toBeFocused();
});

test('at 1280×720, every library story opens with its setup and the whole "Predict first" box above the fold', async ({
  unopenedDash: dash,
}) => {
  // ~1 s a preset on an idle machine; a loaded one several times that.
  test.setTimeout(180_000);
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  for (const p of presets) {
    await dash.api('load', `${p.id}/${questionVariant(p)}`);
    await dash.settled();
    for (const id of [testIds.storySetup, testIds.predict]) {
      const b = (await dash.byId(id).boundingBox())!;
      expect(b.y, `${p.id}: ${id} top`).toBeGreaterThanOrEqual(0);
      expect(b.y + b.height, `${p.id}: ${id} bottom`).toBeLessThanOrEqual(720);
    }
    expect(await page.evaluate(() => window.scrollY), p.id).toBe(0);
  }
});

test('poll-timeout-slow-batch: the consumer card says it left the group while its batch outlasts max.poll.interval.ms, and the why names it', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await page.goto('./?preset=poll-timeout-slow-batch');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
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

test('arrows on the card grid: ↓ goes to the card below, ↑ back, → to the next card', async ({
  dash,
}) => {
  const { page } = dash;
  const l = lib(dash);
  await page.locator('h1').click();
  await page.keyboard.press('l');
  await expect(l.search).toBeFocused();
  await page.keyboard.press('ArrowDown');
  const focused = () =>
    page.evaluate(() => {
      const r = document.activeElement!.getBoundingClientRect();
      return {
        x: Math.round(r.left),
        y: Math.round(r.top),
        id: document.activeElement!.getAttribute('data-preset'),
      };
    });
  const first = await focused();
  await page.keyboard.press('ArrowRight');
  const right = await focused();
  expect(right.id).not.toBe(first.id);
  await page.keyboard.press('ArrowDown');
  const below = await focused();
  // Below the card it left: a lower row, about the same column.
  expect(below.y).toBeGreaterThan(right.y);
  expect(Math.abs(below.x - right.x)).toBeLessThan(40);
  await page.keyboard.press('ArrowUp');
  expect((await focused()).id).toBe(right.id);
});

test('the setup comes before the question; choices are radio buttons; numbers take their unit; an edit hides the answer', async ({
  dash,
}) => {
  test.setTimeout(120_000);
  const { page } = dash;
  const l = lib(dash);
  await page.setViewportSize({ width: 1280, height: 720 });

  // MERGE: the setup states the table and the batch, visible before any answer.
  await page.goto('./?preset=merge-duplicate-source');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  const setup = dash.byId(testIds.storySetup);
  await expect(setup).toBeVisible();
  await expect(setup).toContainText('The table holds {o1: 100}');
  await expect(setup).toContainText('(o1, 120), (o1, 130) and a new order (o2, 50)');
  // Four radio buttons, by keyboard: the first focused, ↓ moves the choice, then Lock in.
  const radios = dash.byId(testIds.predictOptions).getByRole('radio');
  await expect(radios).toHaveCount(4);
  await expect(dash.byId(testIds.predictLock)).toBeDisabled();
  // The setup and the choices, checked alone (the whole page is the other axe tests' work).
  const axe = await new AxeBuilder({ page })
    .include(`[data-testid="${testIds.storyPanel}"]`)
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' | ')}`)).toEqual(
    [],
  );
  await radios.first().focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  await expect(radios.nth(1)).toBeChecked();
  await page.screenshot({ path: '/tmp/teach-questions-choice.png' });
  await page.keyboard.press('Tab');
  await expect(dash.byId(testIds.predictLock)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dash.byId(testIds.predictYours)).toContainText('the last update of o1 wins');
  await dash.byId(testIds.predictReveal).click();
  // The wrong choice: marked wrong, with its why not.
  await expect(l.answer).toHaveAttribute('data-judged', 'wrong');
  await expect(dash.byId(testIds.predictWhyNot)).toContainText('cardinality violation');
  await page.screenshot({ path: '/tmp/teach-questions-why-not.png' });

  // The card charge: the amount is in the setup; "2 charges" is right ($40 charged twice).
  await page.goto('./?preset=card-charge-idempotency/key-per-attempt');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await expect(dash.byId(testIds.storySetup)).toContainText('p-77, $40');
  await dash.byId(testIds.predictInput).fill('2 charges');
  await dash.byId(testIds.predictLock).click();
  await dash.byId(testIds.predictReveal).click();
  await expect(l.answer).toHaveAttribute('data-judged', 'right');
  await expect(l.answer).toContainText('Right: $80.');

  // Two numbers asked, "twice" given: not locked in, and it says what is missing.
  await page.goto('./?preset=lost-ack-retry/idempotence-off');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
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
  await page.screenshot({ path: '/tmp/teach-questions-edited.png' });
  expect(dash.errors).toEqual([]);
});
