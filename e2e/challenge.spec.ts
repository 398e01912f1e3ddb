/**
 * A challenge, as a student meets it: opened by its link, solved by clicking a fault on the
 * pipeline and playing the run to its end, the engine's success screen with the run's explanation.
 */
import { Dashboard, expect, test } from './fixtures';
import { testIds } from '../src/ui/testIds';
import { shippedChallenges } from '../src/scenarios/challenges/shipped';
import { OWN_CHALLENGE as OWN } from '../src/ui/io/challengeFile.testdata';

// A loaded machine: the page's first run and the fixture's setup share this budget.
test.describe.configure({ timeout: 90_000 });

test('a challenge opened by ?challenge= is solved by one crash clicked on the consumer', async ({
  unopenedDash: dash,
}) => {
  await dash.goto('./?challenge=commit-before-crash-point');
  const panel = dash.byId(testIds.challengePanel);
  await expect(panel).toHaveAttribute('data-challenge', 'commit-before-crash-point');
  await expect(dash.byId(testIds.challengeGoal)).toContainText('Lose an event');
  await expect(dash.byId(testIds.challengeAttempts)).toHaveAttribute('data-value', '0');
  // The start has no fault: the consumer commits right after poll() (commitSync), then writes.
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(0);
  // At t = 0 nothing has run: the verdict waits for the end (issue 24), as on the main page.
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);
  await expect(dash.byId(testIds.outcomeRevealNow).first()).toBeVisible();
  // Crash it right after its next commit: the batch is committed and never written (at-most-once).
  await dash.fault('consumer-0', 'crash-after-commit');
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(1);
  // The attempt's verdict waits for its end too: it would tell whether it solves the challenge.
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);
  await dash.toEnd();
  await expect(dash.byId(testIds.verdict)).toHaveAttribute('data-held', 'false');
  const success = dash.byId(testIds.challengeSuccess);
  await expect(success).toContainText('Solved!');
  // All 10 records were in the one batch it polled (max.poll.records=10): all 10 lost.
  await expect(success).toContainText('10 lost');
  await expect(dash.byId(testIds.challengeAttempts)).toHaveAttribute('data-value', '1');
  // Solved, no hint is on its way: the panel said "Next hint after 1 more attempt" under Solved!
  await expect(panel).not.toContainText('Next hint');
  // The attempt is kept: a reload finds the counter where it was, and the pipeline as the student
  // left it — their crash on the consumer, not the challenge's start without it.
  await dash.reload();
  await expect(dash.byId(testIds.challengeAttempts)).toHaveAttribute('data-value', '1');
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(1);
  // The same link in another tab (shared with a friend on this computer) opens the challenge as
  // it starts: no fault, though the workspace stored is the attempt.
  const other = await dash.page.context().newPage();
  await other.goto('./?challenge=commit-before-crash-point');
  await expect(other.getByTestId(testIds.challengePanel)).toBeVisible();
  await expect(other.getByTestId(testIds.faultMarker)).toHaveCount(0);
  await other.close();
  expect(dash.errors).toEqual([]);
});

test('every challenge opens with its verdict folded until the run ends or "Reveal now"', async ({
  unopenedDash: dash,
}) => {
  test.setTimeout(180_000);
  for (const c of shippedChallenges) {
    await dash.page.goto(`./?challenge=${c.id}`);
    await expect(dash.byId(testIds.challengePanel)).toHaveAttribute('data-challenge', c.id);
    await dash.ready();
    await expect(dash.byId(testIds.verdict), c.id).toHaveCount(0);
    await dash.byId(testIds.outcomeRevealNow).first().click();
    await expect(dash.byId(testIds.verdict), c.id).toBeVisible();
  }
  expect(dash.errors).toEqual([]);
});

test('a challenge is the task on screen: no "Start here" to another story beside it', async ({
  unopenedDash: dash,
}) => {
  // "Start here →" stayed on ?challenge=: it loaded at-most-once and its question under the
  // challenge's panel, which then judged that pipeline against the challenge's start.
  await dash.goto('./?challenge=commit-before-crash-point');
  await expect(dash.byId(testIds.challengePanel)).toHaveAttribute(
    'data-challenge',
    'commit-before-crash-point',
  );
  await expect(dash.byId(testIds.startHere)).toHaveCount(0);
  // Left, the page is the first screen again, and offers it.
  await dash.page.getByRole('button', { name: 'Leave the challenge' }).click();
  await expect(dash.byId(testIds.challengePanel)).toHaveCount(0);
  await expect(dash.byId(testIds.startHere)).toBeVisible();
  expect(dash.errors).toEqual([]);
});

test('an open challenge has a skip link to its panel, past the top bar and the playback', async ({
  unopenedDash: dash,
}) => {
  // The panel comes after the playback and the status row: a keyboard reached it only past them.
  const { page } = dash;
  await dash.goto('./?challenge=commit-before-crash-point');
  await expect(dash.byId(testIds.challengePanel)).toBeVisible();
  const skip = page.getByRole('link', { name: 'Skip to the challenge' });
  await skip.focus();
  await page.keyboard.press('Enter');
  await expect(dash.byId(testIds.challengePanel)).toBeFocused();
  expect(dash.errors).toEqual([]);
});

test('on a phone, an open challenge is the first thing on its screen', async ({
  unopenedDash: dash,
}) => {
  // A room's phones link to the challenge (docs/classroom.md): on a 390×844 screen its panel
  // came 595 px down, under the top bar, the playback and the tools — the first screen showed
  // none of the task.
  const { page } = dash;
  await page.setViewportSize({ width: 390, height: 844 });
  await dash.goto('./?challenge=commit-before-crash-point');
  const panel = dash.byId(testIds.challengePanel);
  await expect(panel).toBeVisible();
  const box = (await panel.boundingBox())!;
  expect(box.y).toBeLessThan(40);
  await expect(
    panel.getByRole('heading', { name: 'Find the crash point that loses data' }),
  ).toBeInViewport();
  // The top bar follows it, on the same page.
  await expect(page.getByRole('button', { name: /Library/ })).toBeVisible();
  expect(dash.errors).toEqual([]);
});

test('Back from a challenge opened by its link leaves it: no other pipeline under its panel', async ({
  unopenedDash: dash,
}) => {
  // The page pushed the challenge's start as a second entry over the first screen's preset: Back
  // showed at-least-once/default under the Flink challenge's panel, which judged it as an attempt.
  await dash.goto('./?challenge=flink-fix-sink');
  await expect(dash.byId(testIds.challengePanel)).toHaveAttribute(
    'data-challenge',
    'flink-fix-sink',
  );
  await dash.ready();
  expect(new URL(dash.page.url()).search).toBe('?challenge=flink-fix-sink');
  await dash.page.goBack();
  expect(dash.page.url()).not.toContain('preset=');
  expect(dash.errors).toEqual([]);
});

test('Back from a challenge opened in the library closes its panel; Forward opens it again', async ({
  dash,
}) => {
  // Back loaded the page before (at-least-once) and left the Spark challenge's panel over it.
  await dash.page.getByRole('button', { name: /Library/ }).click();
  await dash.page.getByText('Challenges').first().click();
  await dash.page.locator('[data-challenge="spark-fix-append"]').first().click();
  await expect(dash.byId(testIds.challengePanel)).toHaveAttribute(
    'data-challenge',
    'spark-fix-append',
  );
  await dash.page.goBack();
  await expect(dash.byId(testIds.challengePanel)).toHaveCount(0);
  await dash.page.goForward();
  await expect(dash.byId(testIds.challengePanel)).toHaveAttribute(
    'data-challenge',
    'spark-fix-append',
  );
  expect(dash.errors).toEqual([]);
});

test('a challenge file opens with Import as a shipped one does; a reload and its link open it again; a bad one is refused at its line', async ({
  dash,
}) => {
  const { page } = dash;
  // A misspelt goal kind: refused naming the field at its line, the page as it was.
  const bad = JSON.stringify({ ...OWN, goal: { kind: 'loose', atLeast: 1 } }, null, 2);
  const badLine = bad.split('\n').findIndex((l) => l.includes('"loose"')) + 1;
  await dash.byId(testIds.importButton).click();
  await dash.byId(testIds.importFile).setInputFiles({
    name: 'ours.challenge.json',
    mimeType: 'application/json',
    buffer: Buffer.from(bad),
  });
  const errors = dash.byId(testIds.importErrors);
  await expect(errors).toContainText('“ours.challenge.json” is not a valid challenge');
  await expect(errors).toContainText(`ours.challenge.json:${badLine}:`);
  await expect(errors).toContainText('goal.kind');
  // A shipped challenge's id is its own: refused, naming the id.
  await dash.byId(testIds.importFile).setInputFiles({
    name: 'copy.challenge.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ ...OWN, id: 'acks-one-loses' }, null, 2)),
  });
  await expect(errors).toContainText('"acks-one-loses" is a shipped challenge\'s id');
  await expect(dash.byId(testIds.challengePanel)).toHaveCount(0);
  // The good file: its panel, its start (acks=1, no fault) as the page.
  await dash.byId(testIds.importFile).setInputFiles({
    name: 'ours.challenge.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(OWN, null, 2)),
  });
  const panel = dash.byId(testIds.challengePanel);
  await expect(panel).toHaveAttribute('data-challenge', 'our-acks-one');
  await expect(panel).toContainText('Our acks=1 exercise');
  await expect(dash.byId(testIds.challengeGoal)).toContainText('Lose an event');
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(0);
  await expect(page).toHaveURL(/[?&]challenge=our-acks-one(&|#|$)/);
  await expect(page).toHaveURL(/#(.*&)?ch=\d+\./);
  // A reload finds it in the address.
  await dash.reload();
  await expect(dash.byId(testIds.challengePanel)).toHaveAttribute('data-challenge', 'our-acks-one');
  // Its link, opened in another tab, opens it at its start.
  const link = page.url();
  const other = await page.context().newPage();
  await other.goto(link);
  await expect(other.getByTestId(testIds.challengePanel)).toHaveAttribute(
    'data-challenge',
    'our-acks-one',
  );
  await expect(other.getByTestId(testIds.faultMarker)).toHaveCount(0);
  await other.close();
  // Closed, the challenge leaves the address.
  await panel
    .getByRole('button', { name: /close|leave/i })
    .first()
    .click();
  await expect(dash.byId(testIds.challengePanel)).toHaveCount(0);
  await expect(page).not.toHaveURL(/ch=/);
  expect(dash.errors).toEqual([]);
});

/**
 * What the page shows from navigation on, recorded in the page before any of its scripts runs:
 * each story title and each "Predict first" box that reaches the DOM, and each change of it that
 * showed a pipeline without the challenge's panel over it.
 */
function recordFirstScreens() {
  const seen = { titles: [] as string[], predict: 0, pipelineAlone: 0 };
  (window as unknown as { __seen: typeof seen }).__seen = seen;
  const look = () => {
    const title = document.querySelector('[data-testid="story-title"]');
    const text = title?.textContent?.trim();
    if (text && seen.titles.at(-1) !== text) seen.titles.push(text);
    if (document.querySelector('[data-testid="predict"]')) seen.predict += 1;
    if (
      document.querySelector('[data-testid="pipeline"]') &&
      !document.querySelector('[data-testid="challenge-panel"]')
    )
      seen.pipelineAlone += 1;
  };
  new MutationObserver(look).observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
  });
}

test('?challenge= is the first screen: no other story before it, and its load is no undo step', async ({
  unopenedDash: dash,
}) => {
  // The page rendered the default story (at-least-once, its "Predict first" box) for ~0.9 s at
  // 1280×720, then the challenge replaced it — an undo step back to a story never asked for.
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.addInitScript(recordFirstScreens);
  await dash.goto('./?challenge=commit-before-crash-point');
  await expect(dash.byId(testIds.challengePanel)).toHaveAttribute(
    'data-challenge',
    'commit-before-crash-point',
  );
  await expect(dash.byId(testIds.undo)).toBeDisabled();
  const seen = await page.evaluate(
    () =>
      (
        window as unknown as {
          __seen: { titles: string[]; predict: number; pipelineAlone: number };
        }
      ).__seen,
  );
  expect(seen.titles).toEqual([]);
  expect(seen.predict).toBe(0);
  // The panel is there with the first pipeline drawn (its chunk loaded before the first render).
  expect(seen.pipelineAlone).toBe(0);
  // The challenge's start: no fault on it, the address as it was given.
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(0);
  expect(new URL(page.url()).search).toBe('?challenge=commit-before-crash-point');
  expect(dash.errors).toEqual([]);
});

test('?challenge= over a saved workspace: one Undo brings the workspace back', async ({ dash }) => {
  // The reader's own work (a crash placed on the default story, which has 2 faults of its own:
  // 3 markers), autosaved; then a challenge link.
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(2);
  await dash.fault('consumer-0', 'crash-after-commit');
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(3);
  await dash.goto('./?challenge=acks-one-loses');
  await expect(dash.byId(testIds.challengePanel)).toHaveAttribute(
    'data-challenge',
    'acks-one-loses',
  );
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(0);
  await expect(dash.byId(testIds.undo)).toBeEnabled();
  await dash.byId(testIds.undo).click();
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(3);
  expect(dash.errors).toEqual([]);
});

test('an unknown ?challenge= is refused naming it; the page opens as without it', async ({
  unopenedDash: dash,
}) => {
  await dash.goto('./?challenge=no-such-challenge');
  await expect(dash.page.getByText(/No challenge “no-such-challenge”/)).toBeVisible();
  await expect(dash.byId(testIds.challengePanel)).toHaveCount(0);
  // Usable: the first screen's "Start here" and the default story's run.
  await expect(dash.byId(testIds.startHere)).toBeVisible();
  expect(new URL(dash.page.url()).searchParams.has('challenge')).toBe(false);
  expect(dash.errors).toEqual([]);
});

test('?challenge= beside ?preset=: the challenge opens on its start, and a notice names the preset left out', async ({
  unopenedDash: dash,
}) => {
  // A teacher's link naming both: the preset was dropped without a word.
  await dash.goto('./?challenge=commit-before-crash-point&preset=at-least-once&present=1');
  await expect(dash.byId(testIds.challengePanel)).toHaveAttribute(
    'data-challenge',
    'commit-before-crash-point',
  );
  // Its start, not the story's: no fault (at-least-once's story has 2).
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(0);
  const notice = dash.byId(testIds.notice).filter({ hasText: '?preset=' });
  await expect(notice).toContainText(
    'This link names a challenge and a story: the challenge “Find the crash point that loses data” opened on its own start; ?preset=at-least-once/default was not used.',
  );
  // The address keeps the challenge only: a reload or a copy says nothing twice.
  await expect.poll(() => new URL(dash.page.url()).searchParams.has('preset')).toBe(false);
  // The other reading, one click away: the story alone, projector mode kept.
  await notice.getByRole('button', { name: /^Open the story instead/ }).click();
  await dash.ready();
  await expect(dash.byId(testIds.challengePanel)).toHaveCount(0);
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(2);
  const search = new URL(dash.page.url()).searchParams;
  expect(search.get('preset')).toBe('at-least-once/default');
  expect(search.has('challenge')).toBe(false);
  expect(search.get('present')).toBe('1');
  expect(dash.errors).toEqual([]);
});

test('?challenge= beside its own story’s ?preset=: the challenge sets the story up, and says so', async ({
  unopenedDash: dash,
}) => {
  await dash.goto('./?preset=commit-before-process&challenge=commit-before-crash-point');
  await expect(dash.byId(testIds.challengePanel)).toHaveAttribute(
    'data-challenge',
    'commit-before-crash-point',
  );
  // The story as the challenge sets it up: without its crash (the story as shipped solves it).
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(0);
  await expect(dash.byId(testIds.notice).filter({ hasText: '?preset=' })).toContainText(
    'its own story (?preset=commit-before-process/default): the challenge “Find the crash point that loses data” opened on that story as the challenge sets it up',
  );
  expect(dash.errors).toEqual([]);
});

test('a ?challenge= cut short (its tail lost in a chat) offers the challenge it meant, and opens it', async ({
  unopenedDash: dash,
}) => {
  await dash.goto('./?challenge=commit-before-crash&present=1');
  await expect(dash.page.getByText(/No challenge “commit-before-crash”/)).toBeVisible();
  await dash.page.getByRole('button', { name: /^Open “commit-before-crash-point”/ }).click();
  await dash.ready();
  await expect(dash.byId(testIds.challengePanel)).toHaveAttribute(
    'data-challenge',
    'commit-before-crash-point',
  );
  // The address the page opened on, its projector mode kept.
  const search = new URL(dash.page.url()).searchParams;
  expect(search.get('challenge')).toBe('commit-before-crash-point');
  expect(search.get('present')).toBe('1');
  expect(search.has('preset')).toBe(false);
  expect(dash.errors).toEqual([]);
});

test('a student shares their attempt: the link opens it under the challenge’s panel, not the start', async ({
  unopenedDash: dash,
  browser,
}) => {
  // The share link of a challenge page carries ?challenge= and the attempt (#s=): opened by the
  // teacher, the challenge's start replaced the attempt they were sent.
  await dash.goto('./?challenge=commit-before-crash-point');
  await dash.fault('consumer-0', 'crash-after-commit');
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(1);
  await dash.byId(testIds.shareButton).click();
  const link = await dash.byId(testIds.shareUrl).inputValue();
  expect(link).toMatch(/\?challenge=commit-before-crash-point#(.*&)?s=2\./);
  const teacher = new Dashboard(await (await browser.newContext()).newPage());
  await teacher.goto(link);
  await expect(teacher.byId(testIds.challengePanel)).toHaveAttribute(
    'data-challenge',
    'commit-before-crash-point',
  );
  await expect(teacher.byId(testIds.faultMarker)).toHaveCount(1);
  await expect(teacher.byId(testIds.undo)).toBeDisabled();
  await teacher.page.context().close();
  expect(dash.errors).toEqual([]);
  expect(teacher.errors).toEqual([]);
});
