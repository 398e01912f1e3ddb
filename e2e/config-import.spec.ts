/**
 * A real `producer.properties` through the page's Import: its knobs set (one undoable load, a
 * notice naming the keys applied and ignored); a bad one refused naming its line, the work kept.
 */
import type { Page } from '@playwright/test';
import { compareTestIds as c } from '../src/ui/compare/compareTestIds';
import { expect, test, testIds } from './fixtures';
import { IDEMPOTENT_PIPELINE } from './support/engineersPipeline';

const scenario = (page: Page) =>
  page.evaluate(
    () =>
      window.__deliveryLab!.scenario() as {
        producer?: Record<string, unknown>;
        processor?: { type: string };
      },
  );

test('a producer.properties sets its knobs; a bad one is refused naming its line', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  const before = await scenario(page);
  const file = dash.byId(testIds.importFile);
  await dash.byId(testIds.importButton).click();
  // Line 3 is refused: retries must be an integer (https://kafka.apache.org/documentation/#producerconfigs_retries).
  await file.setInputFiles({
    name: 'producer.properties',
    mimeType: 'text/plain',
    buffer: Buffer.from('acks=1\nenable.idempotence=false\nretries=many\n'),
  });
  const errors = dash.byId(testIds.importErrors);
  await expect(errors).toContainText('“producer.properties” is not a valid configuration');
  await expect(errors).toContainText('producer.properties:3: retries: expected an integer');
  expect(await scenario(page)).toEqual(before);

  // acks=1 with idempotence off (Kafka refuses idempotence without acks=all:
  // https://kafka.apache.org/documentation/#producerconfigs_enable.idempotence); the broker
  // address is where to connect, not modelled: 2 keys applied, 1 ignored.
  await file.setInputFiles({
    name: 'producer.properties',
    mimeType: 'text/plain',
    buffer: Buffer.from(
      '# mine\nacks=1\nenable.idempotence=false\nbootstrap.servers=localhost:9092\n',
    ),
  });
  await expect(dash.byId(testIds.importDialog)).toBeHidden();
  const after = await scenario(page);
  expect(after.producer).toMatchObject({ acks: 1, 'enable.idempotence': false });
  const notice = dash.byId(testIds.notice).filter({ hasText: 'From “producer.properties”' });
  await expect(notice).toContainText('2 keys applied, 1 ignored');
  await expect(notice).toContainText('producer.properties:2: applied acks=1 → producer.acks');
  await expect(notice).toContainText('ignored bootstrap.servers');
  // One undoable load: Undo brings the open work back.
  await dash.byId(testIds.undo).click();
  expect(await scenario(page)).toEqual(before);
});

// A data engineer's sink is a statement: picked beside the client's .properties, the page refused
// it ("sink.sql: several files open together only as configuration files (.properties, .yaml)").
test('a sink.sql picked with a producer.properties sets the table sink from its statement', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  await dash.importFiles(IDEMPOTENT_PIPELINE);
  const sink = await page.evaluate(
    () => (window.__deliveryLab!.scenario() as { sink?: Record<string, unknown> }).sink,
  );
  expect(sink).toMatchObject({
    type: 'table',
    name: 'payments',
    statement: 'on-conflict-do-nothing',
    key: 'business-id',
  });
  const notice = dash
    .byId(testIds.notice)
    .filter({ hasText: 'From “producer.properties” + “sink.sql”' });
  // acks, enable.idempotence and the statement's table, form, key and the key column's name: 6.
  await expect(notice).toContainText('6 keys applied, 0 ignored');
  // The statement as they wrote it, not the lab's ON CONFLICT (id): on the card and in the SQL.
  await expect(page.locator('.sink-statement')).toHaveText(
    'INSERT … ON CONFLICT (payment_id) DO NOTHING',
  );
  await dash.byId(testIds.sinkSqlToggle).click();
  const script = dash.byId(testIds.sinkSqlScript);
  await expect(script).toContainText('INSERT INTO payments (payment_id, amount, src) VALUES');
  await expect(script).toContainText('ON CONFLICT (payment_id) DO NOTHING;');
  // The claim is the workload's, said so, with the choice of another: the claim alone changes.
  const claim = dash
    .byId(testIds.notice)
    .filter({ hasText: 'The verdict checks exactly-once: the claim of the workload' });
  await expect(claim).toBeVisible();
  await claim.getByRole('button', { name: /^at-least-once:/ }).click();
  await expect(claim).toHaveCount(0);
  const after = await page.evaluate(
    () =>
      window.__deliveryLab!.scenario() as {
        claim?: string;
        producer?: Record<string, unknown>;
      },
  );
  expect(after.claim).toBe('at-least-once');
  expect(after.producer).toMatchObject({ acks: 'all', 'enable.idempotence': true });
});

// A newcomer's report: Import, then Compare, showed "✓ Observed …" in every lane at t = 0 with
// its counters at 0 — Compare put a copy of the imported scenario on screen, which was no longer
// the replay whose verdict folds until its end (src/store/sameRun.ts).
test('an imported run compared at t = 0: every lane’s verdict waits for its end, and once seen stays through close and undo', async ({
  dash,
}) => {
  test.setTimeout(120_000);
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  await dash.pickPreset('at-least-once');
  await dash.importFiles(IDEMPOTENT_PIPELINE);
  await dash.settled();
  const folded = page.locator(`[data-testid="${testIds.outcomeHidden}"][data-what="verdict"]`);
  await expect(folded).toContainText('Shown when the run reaches its end.');
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);

  await dash.byId(c.toggle).click();
  await expect(dash.byId(c.lane)).toHaveCount(3, { timeout: 30_000 });
  await dash.settled();
  // t = 0, nothing applied yet in any lane: no lane's verdict.
  await expect(dash.byId(c.laneVerdictFolded)).toHaveCount(3);
  await expect(dash.byId(c.laneVerdict)).toHaveCount(0);
  await expect(dash.byId(c.laneVerdictFolded).first()).toContainText('Verdict at its end');

  // The shared clock at the end: every lane's verdict; back at the start they stay (seen).
  await dash.timeline().focus();
  await page.keyboard.press('End');
  await expect(dash.byId(c.laneVerdict)).toHaveCount(3);
  await expect(dash.byId(c.laneVerdictFolded)).toHaveCount(0);
  await page.keyboard.press('Home');
  await expect(dash.byId(c.laneVerdict)).toHaveCount(3);

  // Compare closed, at t = 0: the run's verdict, seen at its end, stays shown.
  await dash.byId(c.toggle).click();
  await expect(dash.byId(c.lane)).toHaveCount(0);
  await expect(dash.byId(testIds.verdict)).toBeVisible();
  await expect(folded).toHaveCount(0);
  // Undo: Compare back, its verdicts shown; undo again: the run as imported, its verdict shown.
  await dash.byId(testIds.undo).click();
  await expect(dash.byId(c.lane)).toHaveCount(3);
  await expect(dash.byId(c.laneVerdict)).toHaveCount(3);
  await expect(dash.byId(c.laneVerdictFolded)).toHaveCount(0);
  await dash.byId(testIds.undo).click();
  await expect(dash.byId(c.lane)).toHaveCount(0);
  await expect(dash.byId(testIds.verdict)).toBeVisible();
  await expect(folded).toHaveCount(0);
});

// A reload restored an imported run with its verdict shown at t = 0: the saved workspace did not
// keep that it was a file opened whose end was not seen (LabState.replay).
test('an imported run reloaded before its end: its verdict still waits for its end; seen, it stays shown', async ({
  dash,
}) => {
  test.setTimeout(120_000);
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  await dash.importFiles({
    name: 'producer.properties',
    mimeType: 'text/plain',
    buffer: Buffer.from('acks=all\nenable.idempotence=true\n'),
  });
  await dash.settled();
  const folded = page.locator(`[data-testid="${testIds.outcomeHidden}"][data-what="verdict"]`);
  await expect(folded).toContainText('Shown when the run reaches its end.');
  await dash.reload();
  await dash.settled();
  await expect(folded).toContainText('Shown when the run reaches its end.');
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);
  // Its end reached: the verdict; a reload (t = 0 again) keeps it shown.
  await dash.timeline().focus();
  await page.keyboard.press('End');
  await expect(dash.byId(testIds.verdict)).toBeVisible();
  await dash.reload();
  await dash.settled();
  await expect(dash.byId(testIds.verdict)).toBeVisible();
  await expect(folded).toHaveCount(0);
});

// The claim question of imported files went with a reload, though the scenario it speaks of came
// back: it is part of the saved workspace while it waits for its answer (src/ui/io/claimNotice.ts).
test('the claim question of imported files survives a reload until answered; answered, it stays gone', async ({
  dash,
}) => {
  test.setTimeout(90_000);
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  await dash.pickPreset('at-least-once');
  await dash.importFiles(IDEMPOTENT_PIPELINE);
  const claim = dash
    .byId(testIds.notice)
    .filter({ hasText: 'The verdict checks exactly-once: the claim of the workload' });
  await expect(claim).toBeVisible();
  const scenario = () => page.evaluate(() => window.__deliveryLab!.scenario());
  const imported = await scenario();
  await dash.reload();
  await dash.settled();
  // The imported scenario back, and its question with it, its choices whole.
  expect(await scenario()).toEqual(imported);
  await expect(claim).toBeVisible();
  await expect(claim.getByRole('button', { name: /^Keep exactly-once:/ })).toBeVisible();
  await page.screenshot({ path: 'test-results/claim-notice-reloaded.png' });
  // Answered (the claim kept): gone, and a reload does not ask it again.
  await claim.getByRole('button', { name: /^Keep exactly-once:/ }).click();
  await expect(claim).toHaveCount(0);
  await dash.reload();
  await dash.settled();
  expect(await scenario()).toEqual(imported);
  await expect(claim).toHaveCount(0);
});
