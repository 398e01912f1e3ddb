/**
 * The room, end to end: the classroom server (started here on a free loopback port, serving the
 * built dist/ — the same server `npm run classroom` starts), a presenter's page and three
 * students' browser contexts on one session. The presenter asks a preset's multiple-choice
 * question; three students answer; the histogram shows 3 answers; the reveal reaches all three.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { classroomServerForSpec } from './support/classroomServer';
import { RoomTestClient } from '../server/roomTestClient';
import { roomTestIds as ids } from '../src/ui/room/roomTestIds';
import { testIds } from '../src/ui/testIds';

const server = classroomServerForSpec();

/** Open `address` on the classroom server, start a room there; its join code. */
async function startRoom(page: Page, address: string): Promise<string> {
  await page.goto(address);
  await page.getByTestId(ids.start).click();
  return (await page.getByTestId(ids.code).textContent())!.trim();
}

/**
 * The presenter's page at 1280×720 on at-least-once (its question: how many rows the table ends
 * with, 24: src/scenarios/foundation.ts), a room asked it and one student's `answer` counted.
 */
async function roomAskedAtLeastOnce(page: Page, browser: Browser, answer: string): Promise<Page> {
  await page.setViewportSize({ width: 1280, height: 720 });
  const code = await startRoom(page, `${server.url}?preset=at-least-once`);
  const student = await (await browser.newContext()).newPage();
  await student.goto(`${server.url}?join=${code}`);
  await student.getByTestId(ids.studentJoin).click();
  await page.getByTestId(ids.publish).click();
  await expect(page.getByTestId(testIds.predictRoom)).toHaveText(
    'The room is predicting: press Play when its answers are in.',
  );
  await student.getByTestId(ids.studentAnswer).fill(answer);
  await student.getByTestId(ids.studentSend).click();
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered');
  return student;
}

// merge-duplicate-source asks a multiple choice (src/scenarios/library/sink.ts); its right option
// is 'rolled-back'.
const PRESET = 'merge-duplicate-source';

test('three students answer the presenter’s question, see 3 answers counted and the reveal', async ({
  page,
  browser,
}) => {
  // Four pages on a shared machine: a generous bound (it takes ~10 s on an idle one).
  test.setTimeout(90_000);
  const code = await startRoom(page, `${server.url}?preset=${PRESET}`);
  expect(code).toMatch(/^[A-Z2-9]{6}$/);
  // The page says its room is live (projector mode then keeps the page's layout:
  // src/ui/present/condensedCards.css); hidden, it is not.
  await expect(page.getByTestId(testIds.app)).toHaveAttribute('data-room-live', 'true');
  await expect(page.getByTestId(ids.joinUrl)).toHaveText(`${server.url}?join=${code}`);

  const students: Page[] = await Promise.all(
    [1, 2, 3].map(async (k) => {
      const student = await (await browser.newContext()).newPage();
      await student.goto(`${server.url}?join=${code}`);
      await student.getByTestId(ids.studentName).fill(`Student ${k}`);
      await student.getByTestId(ids.studentJoin).click();
      await expect(student.getByText('Waiting for the first question…')).toBeVisible();
      return student;
    }),
  );

  await page.getByTestId(ids.publish).click();
  await expect(page.getByTestId(ids.answered)).toHaveText('0 of 3 answered');
  // Two choose the right option, one another ⇒ bars 2 and 1, 3 answered of 3.
  const picks = [/Only \{o1: 100\}/, /Only \{o1: 100\}/, null];
  for (const [k, student] of students.entries()) {
    await expect(student.getByTestId(ids.studentStep)).toBeVisible();
    const radios = student.getByRole('radio');
    await (picks[k] ? student.getByRole('radio', { name: picks[k] }) : radios.last()).check();
    await student.getByTestId(ids.studentSend).click();
    await expect(student.getByText(/^Sent: /)).toBeVisible();
  }
  await expect(page.getByTestId(ids.answered)).toHaveText('3 of 3 answered');
  const histogram = page.getByTestId(ids.histogram);
  await expect(histogram.locator('li[data-value="rolled-back"]')).toHaveAttribute(
    'data-count',
    '2',
  );
  const counts = await histogram
    .locator('li')
    .evaluateAll((lis) => lis.map((li) => Number(li.getAttribute('data-count'))));
  expect(counts.reduce((a, b) => a + b, 0)).toBe(3);

  // A student's reload rejoins as the same student, their answer kept.
  await students[0]!.reload();
  await expect(students[0]!.getByText(/^Sent: /)).toBeVisible();

  await page.getByTestId(ids.reveal).click();
  for (const [k, student] of students.entries()) {
    const reveal = student.getByTestId(ids.studentReveal);
    await expect(reveal).toContainText(k < 2 ? ': right.' : 'the answer is');
    await expect(reveal.locator('li[data-value="rolled-back"]')).toHaveAttribute('data-count', '2');
  }
  await page.getByTestId(ids.hide).click();
  await expect(page.getByTestId(testIds.app)).not.toHaveAttribute('data-room-live');
});

test('before the first question the presenter sees how many students joined, live, large from the back row', async ({
  page,
  browser,
}) => {
  // The count came only with a question ("0 of 3 answered"): a teacher waiting for the room to
  // join saw nothing move on the projector.
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  // In projector mode, as a room watches it: Start a room is under More ▾.
  await page.goto(`${server.url}?preset=${PRESET}&present=1`);
  await page.getByTestId(testIds.moreTools).click();
  await page.getByTestId(ids.start).click();
  const code = (await page.getByTestId(ids.code).textContent())!.trim();
  const joined = page.getByTestId(ids.joined);
  await expect(joined).toHaveText('0 students joined');
  const phones = await Promise.all(
    [1, 2].map(async () => {
      const context = await browser.newContext();
      const phone = await context.newPage();
      await phone.goto(`${server.url}?join=${code}`);
      await phone.getByTestId(ids.studentJoin).click();
      await expect(phone.getByText('Waiting for the first question…')).toBeVisible();
      return context;
    }),
  );
  await expect(joined).toHaveText('2 students joined');
  // Readable from the back row: its number at least as tall as the join code's letters (38 px).
  const size = await joined
    .locator('strong')
    .evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  expect(size).toBeGreaterThanOrEqual(38);
  await expect(joined).toBeInViewport({ ratio: 1 });
  // Q: the large view says it too.
  await page.keyboard.press('q');
  await expect(page.getByTestId(ids.largeJoined)).toHaveText('2 students joined');
  await page.keyboard.press('Escape');
  // A phone leaves (its tab closed): 1.
  await phones[0]!.close();
  await expect(joined).toHaveText('1 student joined');
  // Asked, the room's count is its "N of M answered".
  await page.getByTestId(ids.publish).click();
  await expect(page.getByTestId(ids.answered)).toHaveText('0 of 1 answered');
  await expect(joined).toHaveCount(0);
  await phones[1]!.close();
});

test('End the room: the phone shows the room has ended, its answer and the room’s results, and stops reconnecting', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const code = await startRoom(page, `${server.url}?preset=${PRESET}`);
  const student = await (await browser.newContext()).newPage();
  const sockets: { isClosed(): boolean }[] = [];
  student.on('websocket', (ws) => sockets.push(ws));
  await student.goto(`${server.url}?join=${code}`);
  await student.getByTestId(ids.studentJoin).click();
  await page.getByTestId(ids.publish).click();
  await student.getByRole('radio', { name: /Only \{o1: 100\}/ }).check();
  await student.getByTestId(ids.studentSend).click();
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered');
  await page.getByTestId(ids.reveal).click();
  await expect(student.getByTestId(ids.studentReveal)).toContainText(': right.');

  // Before: the phone kept the question, "live", as if the room still ran.
  await page.getByTestId(ids.end).click();
  // The panel says so and keeps the results' CSV until Close (before, it vanished with them:
  // a presenter who ended the room first could not export what the room answered).
  await expect(page.getByTestId(ids.panel)).toContainText('has ended');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(ids.exportCsv).click(),
  ]);
  const csv = await readFile((await download.path())!, 'utf8');
  expect(csv.trim().split(/\r?\n/)).toHaveLength(2);
  expect(csv).toContain(',rolled-back,');
  await page.getByTestId(ids.close).click();
  await expect(page.getByTestId(ids.panel)).toHaveCount(0);
  await expect(page.getByTestId(ids.start)).toHaveText('Start a room');
  const ended = student.getByTestId(ids.studentEnded);
  await expect(ended.getByRole('heading', { level: 1 })).toHaveText('The room has ended');
  const steps = ended.locator('.room-results > li');
  await expect(steps).toHaveCount(1);
  await expect(steps.first()).toContainText(
    'You answered “Only {o1: 100}: the MERGE fails, and o2 is lost with it”: right.',
  );
  await expect(steps.first()).toContainText('1 of 1 answered');
  await expect(steps.first().locator('li[data-value="rolled-back"]')).toHaveAttribute(
    'data-count',
    '1',
  );
  await expect(steps.first().locator('li[data-right]')).toHaveAttribute(
    'data-value',
    'rolled-back',
  );
  await expect(student.getByText('Room ' + code + ' · ended')).toBeVisible();
  // It stops reconnecting: its one socket closed, and none opened after (the first retry
  // came 1 s after a drop).
  await expect.poll(() => sockets.every((ws) => ws.isClosed())).toBe(true);
  await student.waitForTimeout(2500);
  expect(sockets).toHaveLength(1);
  // A reload (its token kept in the tab) shows how the room ended, again.
  await student.reload();
  await expect(student.getByTestId(ids.studentEnded)).toContainText(
    'You answered “Only {o1: 100}: the MERGE fails, and o2 is lost with it”: right.',
  );
});

test('the static site says the room needs the classroom server', async ({ page }) => {
  // The Playwright config's `vite preview` of the same dist/: a static host, no API.
  await page.goto('./');
  await page.getByTestId(ids.start).click();
  await expect(page.getByTestId(ids.note)).toContainText('npm run classroom');
});

test('in a lesson’s presenter view the room follows the steps: PageDown asks the next, R reveals it', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const code = await startRoom(page, `${server.url}?lesson=delivery-guarantees-45`);
  const student = await (await browser.newContext()).newPage();
  await student.goto(`${server.url}?join=${code}`);
  await student.getByTestId(ids.studentJoin).click();
  // The room is asked the step on screen without a click: step 1 (stepIndex 0) …
  await expect(student.getByTestId(ids.studentStep)).toHaveAttribute('data-step', '0');
  // Its setup keeps each id whole on the phone, as the projector does (Breakable): the phone
  // read "p-1..p-" / "20" and "marked on p-" / "4" at 390 px.
  await expect(student.getByTestId(ids.studentSetup).locator('.event-id')).toHaveText([
    'p-1',
    'p-20',
    'p-4',
    'p-6',
    'p-10',
  ]);
  // … and the next one when the presenter moves on with PageDown.
  await page.locator('body').press('PageDown');
  await expect(student.getByTestId(ids.studentStep)).toHaveAttribute('data-step', '1');
  // R plays the step's run; the answer waits for its end (issue 24), so the room sees nothing yet …
  await page.locator('body').press('r');
  await expect(student.getByTestId(ids.studentStep)).toHaveAttribute('data-step', '1');
  await expect(student.getByTestId(ids.studentReveal)).toHaveCount(0);
  // … and a second R ("Reveal now") reveals it to the room as well as on the projector.
  await page.locator('body').press('r');
  await expect(student.getByTestId(ids.studentReveal)).toBeVisible();
  // Hidden to show the story, the panel took the room's count with it: the Room button keeps it,
  // its number larger than its words (the back row), its name saying what it counts.
  await page.getByTestId(ids.hide).click();
  const button = page.getByRole('button', { name: `Room ${code}, 1 student joined` });
  await expect(button).toBeInViewport({ ratio: 1 });
  const count = page.getByTestId(ids.buttonCount);
  await expect(count).toHaveText('· 1 joined');
  const px = (e: Element) => parseFloat(getComputedStyle(e).fontSize);
  const [number, words] = [await count.locator('strong').evaluate(px), await button.evaluate(px)];
  expect(number).toBeGreaterThanOrEqual(1.3 * words);
  // Back on screen, the panel says it: the button names the room only.
  await button.click();
  await expect(page.getByTestId(ids.panel)).toBeVisible();
  await expect(count).toHaveCount(0);
  // The next step's question open and the panel hidden again: the button counts the answers the
  // teacher waits for, live as the phone answers.
  await page.locator('body').press('PageDown');
  await expect(student.getByTestId(ids.studentStep)).toHaveAttribute('data-step', '2');
  await page.getByTestId(ids.hide).click();
  await expect(count).toHaveText('· 0 of 1 answered');
  // Step 3's question asks a number (effectively-once: how many rows?).
  await student.getByTestId(ids.studentAnswer).fill('20');
  await student.getByTestId(ids.studentSend).click();
  await expect(count).toHaveText('· 1 of 1 answered');
  await expect(
    page.getByRole('button', { name: `Room ${code}, 1 of 1 student answered` }),
  ).toBeVisible();
});

/**
 * A batch preset asked of the room at 1280×720: the panel leaves the question box and the
 * page's buttons in sight (it covered them), and the reveal marks the choice the batch run's
 * verdict names (claim-then-write loses e5: "Some events lost") — before, nothing was marked and
 * the results' `right` column stayed empty.
 */
test('a batch preset in the room: the panel hides nothing, the reveal marks the batch verdict’s choice', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const code = await startRoom(page, `${server.url}?preset=redis-claim-order/claim-then-write`);
  const panel = (await page.getByTestId(ids.panel).boundingBox())!;
  for (const el of [
    page.getByTestId(testIds.predictQuestion),
    page.getByTestId(testIds.predictInput),
    page.getByTestId(testIds.shareButton),
    page.getByTestId(testIds.importButton),
    page.getByRole('button', { name: 'Embed', exact: true }),
  ]) {
    const b = (await el.boundingBox())!;
    expect(b.x + b.width, `${await el.textContent()} ends left of the room panel`).toBeLessThan(
      panel.x,
    );
  }
  const student = await (await browser.newContext()).newPage();
  // The code as typed in lower case: the join page reads it as the code.
  await student.goto(`${server.url}?join=${code.toLowerCase()}`);
  await student.getByTestId(ids.studentJoin).click();
  await page.getByTestId(ids.publish).click();
  await student.getByRole('radio', { name: 'Some events lost' }).check();
  await student.getByTestId(ids.studentSend).click();
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered');
  await page.getByTestId(ids.reveal).click();
  const reveal = student.getByTestId(ids.studentReveal);
  await expect(reveal).toContainText(': right.');
});

/**
 * A student who cannot scan the QR code opens the join page bare (`?join=`) and types the code
 * the projector shows, as typed (lower case, a space). Before, the page had no field for it, and
 * Join answered with the protocol's "code: a 6-character join code" (a teacher's trial).
 */
test('a student types the room’s code on the bare join page; a code that cannot be one is refused before joining', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const code = await startRoom(page, `${server.url}?preset=${PRESET}`);
  const student = await (await browser.newContext()).newPage();
  await student.goto(`${server.url}?join=`);
  const field = student.getByTestId(ids.studentCode);
  await field.fill('abc');
  await student.getByTestId(ids.studentJoin).click();
  await expect(student.getByTestId(ids.refusal)).toHaveText(
    "The room's code is 6 letters and digits, as the projector shows it.",
  );
  await field.fill(`${code.slice(0, 3).toLowerCase()} ${code.slice(3).toLowerCase()}`);
  await student.getByTestId(ids.studentJoin).click();
  await expect(student.getByText('Waiting for the first question…')).toBeVisible();
  await expect(student).toHaveURL(new RegExp(`\\?join=${code}$`));
  await page.getByTestId(ids.publish).click();
  await expect(page.getByTestId(ids.answered)).toHaveText('0 of 1 answered');
  await expect(student.getByTestId(ids.studentStep)).toBeVisible();
  // The story's setup above the question, on the phone too (src/scenarios/library/sink.ts).
  await expect(student.getByTestId(ids.studentSetup)).toContainText(
    'An orders job upserts each micro-batch into Postgres with one MERGE',
  );
});

test('a code no room has is refused, and the phone lets its socket go; the right code then joins', async ({
  page,
  browser,
}) => {
  // The refused page kept its socket open, joined to nothing: one of the server's connection
  // slots until its join deadline (45 s), then it reconnected and was refused again, and again.
  test.setTimeout(60_000);
  const code = await startRoom(page, `${server.url}?preset=${PRESET}`);
  const student = await (await browser.newContext()).newPage();
  const closed: Promise<void>[] = [];
  student.on('websocket', (ws) => closed.push(new Promise((r) => ws.on('close', () => r()))));
  await student.goto(`${server.url}?join=ZZZZZZ`);
  await student.getByTestId(ids.studentJoin).click();
  await expect(student.getByTestId(ids.refusal)).toHaveText(
    'no room has the code ZZZZZZ: check the code the projector shows',
  );
  expect(closed).toHaveLength(1);
  // Closed by the page (well within the test's 60 s; the server's deadline is 45 s after it).
  const after10s = new Promise<string>((r) => setTimeout(() => r('still open after 10 s'), 10_000));
  expect(await Promise.race([closed[0]!.then(() => 'closed'), after10s])).toBe('closed');
  await student.getByTestId(ids.studentCode).fill(code);
  await student.getByTestId(ids.studentJoin).click();
  await expect(student.getByText('Waiting for the first question…')).toBeVisible();
  await expect(page.getByTestId(ids.joined)).toHaveText('1 student joined');
});

/**
 * On the page (not a lesson), the room asked the story's question predicts it: Play is no longer
 * refused for the presenter's own lock-in, the run playing closes the room's answers, and the
 * answer shows on the projector and on the phones together at the run's end. Before, Play was
 * refused ("Waits for your prediction") and the panel's Reveal told the phones the answer while
 * the projector still said "Predict first" (a teacher's trial).
 */
test('on the page, the room asked predicts the story: Play plays and closes its answers, the end reveals on both', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const student = await roomAskedAtLeastOnce(page, browser, '24 rows');
  // Asked again while the room answers the same question (a second press; a Space on the focused
  // button, meant for Play): its answers stand. It was a new step: "0 of 1 answered", "Send"
  // back on the phone, the page's prediction on the step with none.
  await page.getByTestId(ids.publish).press('Space');
  await expect(page.getByTestId(ids.askNote)).toHaveText(
    'The room is answering this question: its answers stand.',
  );
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered');
  await expect(student.getByText(/^Sent: 24 rows/)).toBeVisible();
  await page.getByTestId(testIds.play).click();
  await expect(student.getByTestId(ids.studentClosed)).toBeVisible();
  await expect(page.getByTestId(testIds.predictAnswer)).toHaveCount(0);
  await page.getByTestId(testIds.toEnd).click();
  await expect(page.getByTestId(testIds.predictAnswer)).toBeVisible();
  await expect(page.getByTestId(testIds.predictRoom)).toHaveText(
    'The room predicted: its answers are on the room’s panel.',
  );
  await expect(student.getByTestId(ids.studentReveal)).toContainText(': right.');
});

/**
 * Hidden (its Hide: the pipeline gets the panel's column back while the run plays), the room goes
 * on: the run's end still reveals on the phones, and shown again the panel has the room as it is.
 * Before, Hide closed the presenter's connection and forgot what the room was asked: the run's end
 * revealed on the projector only, the phones still waiting for the answer.
 */
test('on the page, the room hidden while the run plays still gets the reveal at its end', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const student = await roomAskedAtLeastOnce(page, browser, '20');
  await page.getByTestId(ids.hide).click();
  await expect(page.getByTestId(ids.panel)).toBeHidden();
  await expect(page.getByTestId(testIds.app)).not.toHaveAttribute('data-room-live');
  await page.getByTestId(testIds.play).click();
  await expect(student.getByTestId(ids.studentClosed)).toBeVisible();
  await page.getByTestId(testIds.toEnd).click();
  await expect(page.getByTestId(testIds.predictAnswer)).toBeVisible();
  await expect(student.getByTestId(ids.studentReveal)).toContainText(
    'You answered 20 rows; the answer is 24 rows.',
  );
  // Shown again: the room as it is, revealed, its one answer counted.
  await page.getByTestId(ids.start).click();
  await expect(page.getByTestId(ids.panel)).toBeVisible();
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered');
  await expect(page.getByTestId(ids.reveal)).toBeDisabled();
});

/**
 * A variant other than the one its story's question is about asks the room the question any run
 * can be asked (What will the sink end with?), which the page does not ask: the run itself closes
 * and reveals it. Before, flink-checkpoint-replay/upsert played to its end, its verdict on the
 * projector, while the phones still said "The answer shows when the run ends".
 */
test('on the page, the question any run can be asked: Play closes the answers, the run’s end reveals them on the phones', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const code = await startRoom(page, `${server.url}?preset=flink-checkpoint-replay/upsert`);
  const student = await (await browser.newContext()).newPage();
  await student.goto(`${server.url}?join=${code}`);
  await student.getByTestId(ids.studentJoin).click();
  await page.getByTestId(ids.publish).click();
  await expect(student.getByTestId(ids.studentStep)).toContainText('What will the sink end with?');
  // The upsert rewrites the replayed rows in place: every event exactly once.
  await student.getByRole('radio', { name: /Every event exactly once/ }).check();
  await student.getByTestId(ids.studentSend).click();
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered');
  await page.getByTestId(testIds.play).click();
  await expect(student.getByTestId(ids.studentClosed)).toBeVisible();
  await expect(student.getByTestId(ids.studentReveal)).toHaveCount(0);
  await page.getByTestId(testIds.toEnd).click();
  await expect(student.getByTestId(ids.studentReveal)).toContainText(': right.');
  await expect(page.getByTestId(ids.reveal)).toBeDisabled();
});

/**
 * The page's own room in projector mode (a teacher's workshop, 1280×720): the room is a column at
 * the right that the page makes room for. Before, its panel floated at 24rem over the page and
 * covered the question box and the fourth and fifth stages.
 */
test('in projector mode the room is a column beside the page: the question box and every stage uncovered, the histogram on screen; folded while the room watches the run', async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  // Started from projector mode, under More ▾ (README: "in projector mode, under More ▾"): the
  // list closes, the focus back on More — it stayed open over the story's setup.
  await page.goto(`${server.url}?preset=at-least-once&present=1`);
  await expect(page.getByTestId(testIds.app)).toHaveAttribute('data-present', 'true');
  await page.getByTestId(testIds.moreTools).click();
  await page.getByTestId(ids.start).click();
  await expect(page.getByTestId(ids.code)).toBeVisible();
  await expect(page.getByTestId(testIds.moreTools)).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId(testIds.moreTools)).toBeFocused();
  await expect(page.getByTestId(ids.start)).toBeHidden();
  const panel = (await page.getByTestId(ids.panel).boundingBox())!;
  // The column: the screen's whole height, at its right edge.
  expect(panel.x + panel.width).toBeCloseTo(1280, 0);
  expect(panel.height).toBeGreaterThanOrEqual(719);
  // Nothing the room reads is under it: the question box, and each stage's heading.
  const question = (await page.getByTestId(testIds.predict).boundingBox())!;
  expect(question.x + question.width).toBeLessThanOrEqual(panel.x);
  const stages = page.locator('section.stage > h2');
  for (const box of await stages.evaluateAll((els) =>
    els.map((e) => e.getBoundingClientRect().right),
  ))
    expect(box).toBeLessThanOrEqual(panel.x);
  expect(await stages.count()).toBeGreaterThanOrEqual(5);
  // The room's answers on the projector: asked, answered, the histogram within 720 px — the QR
  // code at 190 px above the code and the buttons put it below the fold ("0 of 6 answered" the
  // panel's last line at 1280×720).
  const code = (await page.getByTestId(ids.code).textContent())!.trim();
  const student = await (await browser.newContext()).newPage();
  await student.goto(`${server.url}?join=${code}`);
  await student.getByTestId(ids.studentJoin).click();
  await page.getByTestId(ids.publish).click();
  await student.getByTestId(ids.studentAnswer).fill('24');
  await student.getByTestId(ids.studentSend).click();
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered');
  await expect(page.getByTestId(ids.histogram)).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId(ids.reveal)).toBeInViewport({ ratio: 1 });
  /** The stages past `right` or off the screen, as "name: right, bottom". */
  const stagesPast = (right: number) =>
    page.locator('section.stage').evaluateAll(
      (els, edge) =>
        els
          .map((e) => ({ name: e.getAttribute('aria-label'), r: e.getBoundingClientRect() }))
          .filter(({ r }) => r.right > edge + 1 || r.bottom > 721 || r.top < 0)
          .map(({ name, r }) => `${name}: ${Math.round(r.right)}, ${Math.round(r.bottom)}`),
      right,
    );
  // Asked, beside the column: every stage whole — the counters a line each, the clock on the
  // playback's row (two rows of counter boxes and the clock's own line cut all five).
  expect(await stagesPast(panel.x)).toEqual([]);
  await expect(page.locator('section.stage[data-more-below]')).toHaveCount(0);
  // Played, the room watches the run it predicted: the panel folds away and the page has its
  // width back, the cards condensed, every stage whole on the screen. Beside the column the
  // story stayed above the pipeline and the stages' cards were below the fold (y 650 of 720).
  await page.getByTestId(testIds.play).click();
  await expect(student.getByTestId(ids.studentClosed)).toBeVisible();
  await expect(page.getByTestId(ids.panel)).toBeHidden();
  await expect(page.getByTestId(testIds.app)).not.toHaveAttribute('data-room-live');
  await expect(page.getByTestId(testIds.predictRoom)).toHaveText(
    'The room has predicted: its answers show with the answer, at the run’s end.',
  );
  expect(await stagesPast(1280)).toEqual([]);
  // Folded, the room's count stays in sight on its button beside More ▾ (not behind it).
  await expect(page.getByTestId(ids.buttonCount)).toHaveText('· 1 joined');
  await expect(page.getByTestId(ids.start)).toBeInViewport({ ratio: 1 });
  // The answer: the panel back with the room's answers and the answer, the phone marked.
  await page.getByTestId(testIds.toEnd).click();
  await expect(page.getByTestId(ids.panel)).toBeVisible();
  await expect(page.getByTestId(ids.panel).locator('.room-answer')).toContainText('24');
  await expect(page.getByTestId(ids.histogram)).toBeInViewport({ ratio: 1 });
  await expect(student.getByTestId(ids.studentReveal)).toContainText(': right.');
  // The room's column in the story's place: every stage whole beside it, the sink's table down
  // to its 9th row (p-5's second; p-4's is the 5th), the reader's "$220 over" — beside both
  // columns the sink was cut at its first duplicate and the reader was off the screen.
  await expect(page.locator('.workbench-grid > .story')).toBeHidden();
  const beside = (await page.getByTestId(ids.panel).boundingBox())!.x;
  expect(await stagesPast(beside)).toEqual([]);
  const sinkRows = page.locator(`[data-testid^="${testIds.sinkTable}"] [role=row]:not(.head)`);
  await expect(sinkRows.nth(8)).toBeInViewport({ ratio: 1 });
  const over = page.getByTestId(testIds.readerPanel).locator('.fate', { hasText: '$220 over' });
  await expect(over).toBeInViewport({ ratio: 1 });
  // Compare beside the room: its three lanes whole, left of the column (an empty story column
  // beside them cut the third at 634 px).
  await page.getByTestId(testIds.moreTools).click();
  await page.getByTestId('compare-toggle').click();
  const lanes = page.locator('.compare-lanes > .lane');
  await expect(lanes).toHaveCount(3);
  const column = (await page.getByTestId(ids.panel).boundingBox())!;
  for (const right of await lanes.evaluateAll((els) =>
    els.map((e) => e.getBoundingClientRect().right),
  ))
    expect(right).toBeLessThanOrEqual(column.x);
  await student.context().close();
});

/**
 * Projector mode on the page, the room's answer shown in its column (the story's place): six
 * students gave six numbers — the histogram's five bars and "1 other number" — and the answer in
 * words is whole on the screen, Export results and End the room too. The join line (4 lines) above
 * the QR code, and each number's bar under its label, put at-least-once's answer past the fold
 * (its 3rd of 5 lines at 720 px) and the panel's buttons below it.
 */
test('in projector mode the room’s answer is whole in its column beside six bars, its buttons on the screen', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${server.url}?preset=at-least-once&present=1`);
  await page.getByTestId(testIds.moreTools).click();
  await page.getByTestId(ids.start).click();
  const code = (await page.getByTestId(ids.code).textContent())!.trim();
  const students = await Promise.all(
    [20, 21, 22, 24, 28, 30].map(async () => {
      const s = await RoomTestClient.open(server.url);
      s.send({ type: 'join', code });
      await s.next('joined');
      return s;
    }),
  );
  await page.getByTestId(ids.publish).click();
  await Promise.all(
    [20, 21, 22, 24, 28, 30].map(async (n, i) => {
      const { step } = await students[i]!.next('step');
      students[i]!.send({ type: 'answer', stepIndex: step.stepIndex, value: String(n) });
      await students[i]!.next('accepted');
    }),
  );
  await expect(page.getByTestId(ids.answered)).toHaveText('6 of 6 answered');
  await expect(page.getByTestId(ids.histogram).locator('li')).toHaveCount(6);
  await page.getByTestId(testIds.play).click();
  await page.getByTestId(testIds.toEnd).click();
  const answer = page.getByTestId(ids.panel).locator('.room-answer');
  await expect(answer).toContainText('24: p-4 twice');
  await expect(page.locator('.workbench-grid > .story')).toBeHidden();
  await expect(answer).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId(ids.histogram)).toBeInViewport({ ratio: 1 });
  // Each number's bar on its number's line (18 px type): "20" and its bar, not "20 rows" above it.
  const rowHeights = await page
    .getByTestId(ids.histogram)
    .locator('li')
    .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().height)));
  expect(rowHeights.filter((h) => h > 27)).toEqual([]);
  await expect(page.getByTestId(ids.exportCsv)).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId(ids.end)).toBeInViewport({ ratio: 1 });
  // The code stays for a student who joins late (Q shows it large).
  await expect(page.getByTestId(ids.code)).toBeInViewport({ ratio: 1 });
  for (const s of students) s.close();
});

/** A room on `preset`, one student joined on a 390 px phone, and the page's question asked. */
async function askOnPhone(page: Page, browser: Browser, preset: string): Promise<Page> {
  const code = await startRoom(page, `${server.url}?preset=${preset}`);
  const student = await (
    await browser.newContext({ viewport: { width: 390, height: 844 } })
  ).newPage();
  await student.goto(`${server.url}?join=${code}`);
  await student.getByTestId(ids.studentJoin).click();
  await page.getByTestId(ids.publish).click();
  return student;
}

/**
 * A student's phone (390 px): a number question's box, its unit and Send on one line. At its
 * default 20 characters the box left "rows" and Send on the next line, the unit apart from it.
 */
test('on a 390 px phone a number answer’s box, its unit and Send share a line', async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  const student = await askOnPhone(page, browser, 'at-least-once');
  const box = student.getByTestId(ids.studentAnswer);
  await expect(box).toBeVisible();
  const tops = await student.evaluate(
    ([input, send]) => {
      const i = document.querySelector(`[data-testid="${input}"]`)!.getBoundingClientRect();
      const s = document.querySelector(`[data-testid="${send}"]`)!.getBoundingClientRect();
      return { sameLine: Math.abs(i.top + i.height / 2 - (s.top + s.height / 2)) < 8 };
    },
    [ids.studentAnswer, ids.studentSend],
  );
  expect(tops).toEqual({ sameLine: true });
  await student.context().close();
});

/**
 * A student's phone (390 px) on the stories with the longest words in their titles: the title
 * wraps within the screen and the page never scrolls sideways. At 35 px "acknowledgements"
 * (retry-storm) ran off the right edge, "max.poll.interval.ms" too.
 */
test('on a 390 px phone a story’s title stays within the screen', async ({ page, browser }) => {
  test.setTimeout(90_000);
  for (const preset of ['retry-storm', 'poll-timeout-slow-batch']) {
    const student = await askOnPhone(page, browser, preset);
    const title = student.getByTestId(ids.studentStep).locator('h1');
    await expect(title).toBeVisible();
    const fit = await title.evaluate((h) => ({
      title: h.scrollWidth <= h.clientWidth,
      page: document.documentElement.scrollWidth <= window.innerWidth,
    }));
    expect(fit, preset).toEqual({ title: true, page: true });
    await student.context().close();
  }
});

/**
 * Projector mode on the page, a multiple choice revealed in the room's column (three phones, as a
 * workshop's): its four options, their bars and the answer in words run past 720 px, and the panel
 * scrolls them — End the room and Export results stay at its foot on the screen, and the answer
 * in sight above them. Before, End the room sat past the screen's foot, out of reach without a
 * scroll.
 */
test('in projector mode, a multiple choice revealed: End the room stays on the screen, the answer in sight above it', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${server.url}?preset=${PRESET}&present=1`);
  await page.getByTestId(testIds.moreTools).click();
  await page.getByTestId(ids.start).click();
  const code = (await page.getByTestId(ids.code).textContent())!.trim();
  const phones = await Promise.all(
    [0, 1, 2].map(async () => {
      const s = await RoomTestClient.open(server.url);
      s.send({ type: 'join', code });
      await s.next('joined');
      return s;
    }),
  );
  await page.getByTestId(ids.publish).click();
  // Options A, B and C, one phone each.
  await Promise.all(
    phones.map(async (phone, i) => {
      const { step } = await phone.next('step');
      if (step.question.kind !== 'choice') throw new Error('merge-duplicate-source asks a choice');
      phone.send({
        type: 'answer',
        stepIndex: step.stepIndex,
        value: step.question.options[i]!.id,
      });
      await phone.next('accepted');
    }),
  );
  await expect(page.getByTestId(ids.answered)).toHaveText('3 of 3 answered');
  await page.getByTestId(testIds.play).click();
  await page.getByTestId(testIds.toEnd).click();
  const answer = page.getByTestId(ids.panel).locator('.room-answer');
  await expect(answer).toContainText('Only {o1: 100}');
  // More than the screen: the panel scrolls (not the page).
  const panel = page.getByTestId(ids.panel);
  expect(await panel.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(0);
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(720);
  await expect(page.getByTestId(ids.end)).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId(ids.exportCsv)).toBeInViewport({ ratio: 1 });
  const end = (await page.getByTestId(ids.end).boundingBox())!;
  expect(end.y + end.height).toBeLessThanOrEqual(720);
  // The answer whole above the foot's first button.
  const foot = (await page.getByTestId(ids.exportCsv).boundingBox())!;
  const said = (await answer.boundingBox())!;
  expect(said.y).toBeGreaterThanOrEqual(0);
  expect(said.y + said.height).toBeLessThanOrEqual(foot.y);
  await page.screenshot({ path: 'test-results/room-end-on-screen.png' });
  for (const phone of phones) phone.close();
});
