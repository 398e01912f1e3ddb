/**
 * The dashboard against the built page: break the pipeline by direct manipulation and read what
 * happened. Every exact count below is derived by hand from the scenario (see each comment); the
 * scenarios are the foundation presets (src/scenarios/foundation.ts): 20 payments p-1..p-20,
 * amount 10·i, one every 50 ms; the consumer starts at 40 s, reads from the earliest offset and
 * polls 5 records at a time (max.poll.records = 5).
 */
import { expect, test, testIds } from './fixtures';

test.describe('at-least-once, crash after processing and before the commit', () => {
  test('duplicates = records processed since the last commit; rows marked; the crash explained; exactly-once → 0/0', async ({
    dash,
  }) => {
    const { page } = dash;
    await dash.pickPreset('at-least-once');
    // Start from the preset without its two faults (lost ack, mid-batch crash): nothing goes wrong.
    await dash.deleteAllFaults();
    await dash.toEnd();
    expect(await dash.shown()).toMatchObject({ rows: 20, duplicates: 0, missing: 0 });

    // Crash the consumer after processing, before its commit — armed from time 0.
    await dash.toStart();
    await dash.fault('consumer-0', 'crash-before-commit');
    await expect(dash.byId(testIds.faultMarker)).toHaveCount(1);

    // At the crash: batch 1 (p-1..p-5, max.poll.records = 5) was processed and written, nothing
    // was committed yet → the processor panel shows 5 processed since the last commit.
    const crashAt = await dash.byId(testIds.faultMarker).getAttribute('aria-label');
    expect(crashAt).toMatch(/fired at/);
    await dash.byId(testIds.faultMarker).focus();
    await page.keyboard.press('Enter');
    const firedMs = Number(/fired at ([\d.,]+) s/.exec(crashAt!)![1]!.replace(',', '')) * 1000;
    await dash.api('runTo', firedMs);
    const uncommitted = Number(await dash.byId(testIds.sinceCommit).getAttribute('data-value'));
    expect(uncommitted).toBe(5);

    // The restart finds no committed offset (auto.offset.reset = earliest) and replays p-1..p-5:
    // plain INSERT writes them again → 5 duplicate rows = the 5 records processed since the
    // last commit; 25 rows, sum 2,100 + (10+20+30+40+50) = 2,250; nothing lost.
    await dash.toEnd();
    const end = await dash.shown();
    expect(end).toMatchObject({ rows: 25, duplicates: uncommitted, missing: 0, sum: 2250 });
    await expect(dash.byId(testIds.counterDuplicates)).toContainText('5');
    await expect(dash.byId(testIds.counterSum)).toContainText('$150 double-counted');

    // The rows are marked: rows 6..10 are the 2nd copies of p-1..p-5.
    const table = dash.byId(testIds.sinkTable);
    await table.evaluate((el) => (el.scrollTop = 0));
    for (const id of ['p-1', 'p-2', 'p-3', 'p-4', 'p-5']) {
      const copy = table.locator(
        `[data-testid="${testIds.sinkRow}"][data-event="${id}"][data-copy="2"]`,
      );
      await expect(copy).toHaveCount(1);
      await expect(copy).toContainText('2nd');
    }

    // The explanation names the crash.
    const why = dash.byId(testIds.explanation).first();
    await expect(why).toHaveAttribute('data-fate', 'duplicated');
    await expect(why).toHaveAttribute('data-events', 'p-1,p-2,p-3,p-4,p-5');
    await expect(why).toContainText('consumer-0 crashed');

    // Exactly-once with the same fault: the replay is an upsert on the payment id → 0 / 0.
    await dash.setGuarantee('Exactly-once');
    await expect(dash.byId(testIds.faultMarker)).toHaveCount(1);
    await dash.toEnd();
    expect(await dash.shown()).toMatchObject({ rows: 20, duplicates: 0, missing: 0, sum: 2100 });
    await expect(dash.byId(testIds.verdict)).toHaveAttribute('data-observed', 'exactly-once');
    expect(dash.errors).toEqual([]);
  });
});

test('at-most-once with the same crash: the lost count and the lost events are shown', async ({
  dash,
}) => {
  // The at-most-once preset: acks=0 (no ack to lose) and commit before processing. Batch 2
  // (p-6..p-10) commits offset 10, writes p-6..p-8 and crashes (the preset's consumer crash,
  // mid-batch after 3 records); the restart resumes at 10, so p-9 and p-10 are never written:
  // 18 rows, 2 lost, sum 2,100 − 90 − 100 = 1,910.
  await dash.pickPreset('at-most-once');
  // Past the preset's question: the outcome shown at once (a teacher's "Show the answer").
  await dash.page.locator(`[data-what="verdict"] [data-testid="${testIds.outcomeShow}"]`).click();
  await dash.toEnd();
  expect(await dash.shown()).toMatchObject({
    rows: 18,
    duplicates: 0,
    missing: 2,
    final: true,
    sum: 1910,
  });
  await expect(dash.byId(testIds.counterMissing)).toContainText('lost events');
  const why = dash.page.locator(`[data-testid="${testIds.explanation}"][data-fate="lost"]`);
  await expect(why).toHaveAttribute('data-events', 'p-9,p-10');
  // The ledger, narrowed to anomalies, lists exactly p-9 and p-10 as lost.
  await dash.byId(testIds.ledger).getByLabel('only lost and duplicated events (final)').check();
  const rows = dash.byId(testIds.ledgerRow);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute('data-event', 'p-9');
  await expect(rows.nth(1)).toHaveAttribute('data-event', 'p-10');
  await expect(rows.nth(0)).toHaveAttribute('data-fate', 'lost');
  await expect(rows.nth(0)).toContainText('lost');
  await expect(dash.byId(testIds.verdict)).toHaveAttribute('data-observed', 'at-most-once');
});

test('drop one ack by clicking it (idempotence off) → one duplicate; undo → none', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('at-least-once'); // enable.idempotence=false
  await dash.deleteAllFaults();
  // p-2 is sent at 50 ms (linger.ms = 5): its produce request leaves at 55 ms, is appended at
  // 57 ms, the HW moves at 61 ms and the ack leaves broker-1 at 61 ms, arriving at 63 ms.
  await dash.api('runTo', 62);
  const ack = page.locator(`[data-testid="${testIds.token}"][data-type="produce-response"]`);
  await expect(ack).toHaveCount(1);
  await expect(ack).toHaveAttribute('aria-label', /ack of p-2 from broker-1 to producer/);
  await ack.click();
  await dash.settled();
  // The same message is now lost on the way; a fault marker appeared.
  await expect(ack).toHaveAttribute('data-lost', 'true');
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(1);
  // The producer waits request.timeout.ms (30 s) and retries the batch; without idempotence the
  // broker appends p-2 again → the plain INSERT writes it twice: 1 duplicate row, 21 rows.
  await dash.toEnd();
  expect(await dash.shown()).toMatchObject({ rows: 21, duplicates: 1, missing: 0 });
  const log = dash.byId(testIds.partitionLog);
  await log.locator('.log-scroll').evaluate((el) => (el.scrollTop = 0));
  await expect(log.locator(`[data-event="p-2"]`)).toHaveCount(2);

  // Undo (Ctrl+Z) removes the fault: back to 20 rows and no duplicate.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+z');
  await dash.settled();
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(0);
  await dash.toEnd();
  expect(await dash.shown()).toMatchObject({ rows: 20, duplicates: 0, missing: 0 });
  // …and redo brings it back.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+Shift+z');
  await dash.settled();
  await dash.toEnd();
  expect((await dash.shown()).duplicates).toBe(1);
});

test('scrub back and forth: the counters equal the engine’s values at each time', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  // Times around the interesting moments: the lost ack (161 ms), the retry (30,263 ms), the
  // consumer's first rows, the crash (40,050 ms), the replay — forward, then back, then forward.
  const times = [0, 161, 30_263, 40_009, 40_050, 41_059, 41_150, 40_030, 120, 41_100, 7, 40_048];
  for (const t of times) {
    await dash.api('runTo', t);
    const engine = (await dash.api('engineTotalsAt', t))!;
    await expect
      .poll(
        async () => {
          const c = await dash.shown();
          return [c.rows, c.duplicates, c.missing, c.sum];
        },
        { message: `counters at ${t} ms` },
      )
      .toEqual([engine.rows, engine.duplicates, engine.lost, engine.observedSum]);
  }
  // Dragging on the timeline with the mouse: the counters match the engine at the cursor's time.
  const box = (await dash.timeline().boundingBox())!;
  for (const x of [0.9, 0.2, 0.6, 0.75]) {
    await page.mouse.move(box.x + box.width * x, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * (x + 0.05), box.y + box.height / 2, { steps: 3 });
    await page.mouse.up();
    const { t } = await dash.api('cursor');
    const engine = (await dash.api('engineTotalsAt', t))!;
    const c = await dash.shown();
    expect([t, c.rows, c.duplicates, c.missing, c.sum]).toEqual([
      t,
      engine.rows,
      engine.duplicates,
      engine.lost,
      engine.observedSum,
    ]);
  }
});

test('keyboard only: choose a preset, play, inject a fault, read the verdict', async ({ dash }) => {
  const { page } = dash;
  const kb = page.keyboard;
  // Tab from the top of the page to the scenario picker and choose the at-most-once preset.
  await page.locator('body').focus();
  const picker = dash.byId(testIds.scenarioPicker);
  for (let i = 0; i < 12 && !(await picker.evaluate((el) => el === document.activeElement)); i++)
    await kb.press('Tab');
  await expect(picker).toBeFocused();
  await kb.press('Home'); // the first option: at-most-once
  await dash.settled();
  await expect(picker).toHaveValue('at-most-once/default');

  // Play (Tab to the Play button, Enter), let it run a little, pause with Enter.
  const play = dash.byId(testIds.play);
  for (let i = 0; i < 20 && !(await play.evaluate((el) => el === document.activeElement)); i++)
    await kb.press('Tab');
  await expect(play).toBeFocused();
  await kb.press('Enter');
  await expect(play).toHaveAttribute('aria-pressed', 'true');
  await page.waitForTimeout(300);
  await kb.press('Enter');
  await expect(play).toHaveAttribute('aria-pressed', 'false');
  // Shift+arrow keys (focus back on the page) step one engine event.
  await page.locator('h1').click();
  const before = (await dash.api('cursor')).idx;
  await kb.press('Shift+ArrowRight');
  expect((await dash.api('cursor')).idx).toBe(before + 1);

  // Inject a fault from time 0: Tab to consumer-0's fault menu, Enter, pick "Crash mid-batch".
  await kb.press('Home');
  const head = dash.component('consumer-0').locator('.component-head').first();
  for (let i = 0; i < 60 && !(await head.evaluate((el) => el === document.activeElement)); i++)
    await kb.press('Tab');
  await expect(head).toBeFocused();
  await kb.press('Enter');
  const menu = dash.byId(testIds.faultMenu);
  await expect(menu).toBeVisible();
  // Focus starts on the first item; move down to "Crash mid-batch" and choose it.
  await kb.press('ArrowDown');
  await expect(menu.locator('[data-action="crash-mid-batch"]')).toBeFocused();
  await kb.press('Enter');
  await dash.settled();
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(3);

  // Read the verdict: the timeline (End) takes the cursor to the end.
  await dash.timeline().focus();
  await kb.press('End');
  // The added crash hits batch 1 (offsets 0..4, committed before processing) after 1 record:
  // the restart resumes at 5, so p-2..p-5 are lost. The preset's crash (mid-batch after 3
  // records, its 2nd occurrence) now counts batch [p-6..p-10] as the 1st and fires in batch
  // [p-11..p-15]: p-14 and p-15 are lost. 20 − 6 = 14 rows, 6 lost, nothing duplicated.
  expect(await dash.shown()).toMatchObject({ rows: 14, missing: 6, final: true, duplicates: 0 });
  const lost = page.locator(`[data-testid="${testIds.explanation}"][data-fate="lost"]`);
  await expect(lost).toHaveCount(2);
  await expect(lost.nth(0)).toHaveAttribute('data-events', 'p-2,p-3,p-4,p-5');
  await expect(lost.nth(1)).toHaveAttribute('data-events', 'p-14,p-15');
  await expect(dash.byId(testIds.verdict)).toContainText('Observed at-most-once');
  expect(dash.errors).toEqual([]);
});

test('knobs: real names, a tooltip with the default and the doc, and a change turns the badge to own settings', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  await expect(dash.byId(testIds.guaranteeLabel)).toHaveText('✓ recipe');
  await page.getByRole('tab', { name: 'Knobs' }).click();
  const knob = dash.byId(testIds.knobs).locator('[data-knob="sink.statement"]');
  await knob.getByRole('button', { name: 'About statement' }).click();
  await expect(knob.locator('.knob-help')).toContainText('ON CONFLICT');
  await expect(knob.getByRole('link', { name: /Official documentation/ })).toHaveAttribute(
    'href',
    /postgresql\.org/,
  );
  const idem = dash.byId(testIds.knobs).locator('[data-knob="producer.enable.idempotence"]');
  await idem.getByRole('button', { name: 'About enable.idempotence' }).click();
  await expect(idem.locator('.knob-help')).toContainText('real default');
  await expect(idem.getByRole('link')).toHaveAttribute(
    'href',
    /producerconfigs_enable\.idempotence/,
  );

  // An upsert on the payment id: the knobs leave the at-least-once recipe (the claim stays) and
  // the duplicates of the replay vanish.
  await knob.getByRole('combobox').selectOption('on-conflict-do-update');
  await dash.settled();
  await expect(dash.byId(testIds.guaranteeLabel)).toHaveText('✎ own settings');
  await expect(
    dash.byId(testIds.guaranteeSwitch).getByRole('radio', { name: 'At-least-once' }),
  ).toBeChecked();
  await dash.toEnd();
  // The upsert absorbs both the producer's second p-4 and the replayed p-5..p-7 (same key).
  expect((await dash.shown()).duplicates).toBe(0);
  // "What this sets" lists the at-least-once knobs and flags the changed one.
  await page.getByRole('tab', { name: 'What this sets' }).click();
  await expect(
    dash.byId(testIds.whatThisSets).locator('[data-knob="sink.statement"]'),
  ).toHaveAttribute('data-same', 'false');
});

test('the switch shows the claim the verdict checks; choosing it again applies its recipe', async ({
  dash,
}) => {
  // Claims exactly-once with a plain INSERT sink — at-least-once's recipe, not exactly-once's.
  await dash.pickPreset('flink-checkpoint-replay/plain-sink');
  const switcher = dash.byId(testIds.guaranteeSwitch);
  const eo = switcher.getByRole('radio', { name: 'Exactly-once' });
  await expect(eo).toBeChecked();
  await expect(switcher.getByRole('radio', { checked: true })).toHaveCount(1);
  const badge = dash.byId(testIds.guaranteeLabel);
  await expect(badge).toHaveText('✎ own settings');
  await expect(badge).toHaveAttribute(
    'title',
    /^1 knob differs from the exactly-once recipe here \(statement\)\. The verdict checks exactly-once/,
  );
  await expect(eo).toHaveAccessibleDescription(
    '1 knob differs from the exactly-once recipe here (statement): choose Exactly-once again to apply the recipe',
  );
  await dash.showOutcome();
  await expect(dash.byId(testIds.verdict)).toContainText('claimed exactly-once');

  // Choosing it again applies the exactly-once recipe (an upsert): the claim stays.
  await dash.setGuarantee('Exactly-once');
  await expect(badge).toHaveText('✓ recipe');
  await expect(eo).toBeChecked();
  const scenario = (await dash.api('scenario')) as {
    claim?: string;
    sink?: { statement?: string };
  };
  expect(scenario.claim).toBe('exactly-once');
  expect(scenario.sink?.statement).toBe('on-conflict-do-update');
  // And once more: the knobs follow the recipe, nothing to apply — no undo step either, so one
  // undo brings back the library preset's plain INSERT.
  await dash.setGuarantee('Exactly-once');
  await dash.byId(testIds.undo).click();
  await dash.settled();
  const undone = (await dash.api('scenario')) as { sink?: { statement?: string } };
  expect(undone.sink?.statement).toBeUndefined();
  await expect(badge).toHaveText('✎ own settings');

  // From the keyboard: Space on the chosen option applies its recipe (and does not play); once
  // the knobs follow it, Space plays, as everywhere.
  const play = dash.byId(testIds.play);
  await eo.focus();
  await dash.page.keyboard.press(' ');
  await expect(badge).toHaveText('✓ recipe');
  await expect(play).toHaveAttribute('aria-pressed', 'false');
  await dash.settled();
  await dash.page.keyboard.press(' ');
  await expect(play).toHaveAttribute('aria-pressed', 'true');
  expect(dash.errors).toEqual([]);
});

test('each guarantee click is an undo step of its own, and applies its recipe; an arrow-key walk is one step', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  // Claims exactly-once with knobs of its own (a plain INSERT).
  await page.goto('./?preset=payment-resent-by-app/plain-insert');
  await dash.settled();
  const switcher = dash.byId(testIds.guaranteeSwitch);
  const radio = (name: string) => switcher.getByRole('radio', { name });
  const badge = dash.byId(testIds.guaranteeLabel);
  const undo = dash.byId(testIds.undo);
  await expect(radio('Exactly-once')).toBeChecked();
  await expect(badge).toHaveText('✎ own settings');
  const shipped = await dash.api('scenario');

  await dash.setGuarantee('At-most-once');
  await dash.setGuarantee('At-least-once');
  await page.locator('h1').click();
  await page.keyboard.press('Control+z');
  await dash.settled();
  await expect(radio('At-most-once')).toBeChecked();
  await expect(undo).toBeEnabled();
  await page.keyboard.press('Control+z');
  await dash.settled();
  await expect(radio('Exactly-once')).toBeChecked();
  expect(await dash.api('scenario')).toEqual(shipped);

  // Clicked back to the preset's own guarantee: its recipe, as any choice (not the knobs it
  // shipped with; the switch's hint says "choose Exactly-once again to apply the recipe").
  await dash.setGuarantee('At-most-once');
  await dash.setGuarantee('Exactly-once');
  await expect(badge).toHaveText('✓ recipe');
  await undo.click();
  await dash.settled();
  await expect(radio('At-most-once')).toBeChecked();
  await undo.click();
  await dash.settled();
  expect(await dash.api('scenario')).toEqual(shipped);

  // The arrow keys walk the group, checking each option they pass: one step, and back on the
  // option the walk started from, the scenario as it was.
  await radio('Exactly-once').focus();
  await page.keyboard.press('ArrowLeft');
  await expect(radio('At-least-once')).toBeChecked();
  await page.keyboard.press('ArrowLeft');
  await expect(radio('At-most-once')).toBeChecked();
  await dash.settled();
  await undo.click();
  await dash.settled();
  expect(await dash.api('scenario')).toEqual(shipped);
  await expect(undo).toBeDisabled();
  await radio('Exactly-once').focus();
  await page.keyboard.press('ArrowLeft');
  await expect(radio('At-least-once')).toBeChecked();
  await page.keyboard.press('ArrowRight');
  await expect(radio('Exactly-once')).toBeChecked();
  await dash.settled();
  expect(await dash.api('scenario')).toEqual(shipped);
  await expect(badge).toHaveText('✎ own settings');
  expect(dash.errors).toEqual([]);
});

test('a guarantee the scenario’s fault cannot exist under is disabled, its reason shown', async ({
  dash,
}) => {
  // S08's crash waits for a checkpoint step (during-commit); at-most-once turns checkpointing off,
  // so that switch would be refused: the option is disabled and says why, instead.
  await dash.pickPreset('flink-commit-phase-crash/during-commit');
  const switcher = dash.byId(testIds.guaranteeSwitch);
  const amo = switcher.getByRole('radio', { name: 'At-most-once' });
  await expect(amo).toBeDisabled();
  const reason =
    'fault "TaskManager crash" crashes at a checkpoint step (during-commit), and at-most-once turns checkpointing off';
  await expect(amo).toHaveAccessibleDescription(`At-most-once is unavailable: ${reason}`);
  await expect(switcher.locator('label', { hasText: /^At-most-once$/ })).toHaveAttribute(
    'title',
    `At-most-once is unavailable: ${reason}`,
  );
  // A click on it changes nothing: the claim stays, the run is not refused.
  const claimOf = async () => ((await dash.api('scenario')) as { claim?: string }).claim;
  const claim = await claimOf();
  // (force: Playwright itself refuses to click the label of a disabled control; a user can.)
  await switcher.getByText('At-most-once', { exact: true }).click({ force: true });
  await dash.settled();
  expect(await claimOf()).toBe(claim);
  await expect(dash.byId(testIds.runStatus)).not.toHaveAttribute('data-status', 'invalid');
  await expect(switcher.getByRole('radio', { name: 'Exactly-once' })).toBeEnabled();
  expect(dash.errors).toEqual([]);
});

test('an invalid knob combination is refused with the field named, the last run kept', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  await page.getByRole('tab', { name: 'Knobs' }).click();
  const acks = dash
    .byId(testIds.knobs)
    .locator('[data-knob="producer.acks"]')
    .getByRole('combobox');
  await acks.selectOption('0');
  await dash.settled();
  const idem = dash
    .byId(testIds.knobs)
    .locator('[data-knob="producer.enable.idempotence"]')
    .getByRole('combobox');
  await idem.selectOption('true');
  await expect(dash.byId(testIds.runStatus)).toHaveAttribute('data-status', 'invalid');
  await expect(dash.byId(testIds.issues)).toContainText('producer.acks');
  await expect(dash.byId(testIds.issues)).toContainText('ConfigException');
  // The panels still show a run.
  await expect(dash.byId(testIds.counters)).toContainText('rows in the sink');
  await page.locator('h1').click();
  await page.keyboard.press('Control+z');
  await expect(dash.byId(testIds.runStatus)).not.toHaveAttribute('data-status', 'invalid');
});

test('Flink: the processor panel shows the checkpoint history with each sink transaction', async ({
  dash,
}) => {
  // 6 events, 300 ms apart; checkpoints every second; KafkaSink EXACTLY_ONCE: each checkpoint
  // pre-commits its epoch's transaction and commits it when the checkpoint completes.
  await dash.api('load', {
    version: 1,
    name: 'Flink checkpoints',
    workload: {
      topic: 'in',
      events: Array.from({ length: 6 }, (_, i) => ({ id: `e${i + 1}`, amount: 10, at: i * 300 })),
    },
    processor: { type: 'flink', 'execution.checkpointing.interval': 1000 },
    sink: {
      type: 'kafka',
      topic: 'out',
      deliveryGuarantee: 'EXACTLY_ONCE',
      transactionalIdPrefix: 'job',
      // KafkaSink's own 1 h would be refused by a default broker (15 min at most).
      'transaction.timeout.ms': 900_000,
    },
    readers: [{ name: 'rc', topic: 'out', 'isolation.level': 'read_committed' }],
  });
  await dash.toEnd();
  const table = dash.byId(testIds.checkpointTable);
  const rows = table.locator('li');
  expect(await rows.count()).toBeGreaterThan(0);
  await expect(rows.first()).toHaveAttribute('data-status', 'completed');
  await expect(rows.first()).toContainText('✓ done');
  await expect(rows.first()).toContainText(/sink txn #\d+ ✓ committed/);
  // Six one-key events: the last checkpoint holds all six keys, 16 bytes each.
  await expect(rows.first()).toContainText('state 96 B');
  // Every fact of the entry is inside the column, none scrolled out of sight.
  const fits = await table.evaluate((el) => el.scrollWidth <= el.clientWidth);
  expect(fits).toBe(true);
  // Before the first checkpoint is triggered, the history is empty.
  await dash.toStart();
  await expect(rows.first()).toContainText('no checkpoint yet');
});

test.describe('keyboard: Space plays and pauses wherever it means nothing else', () => {
  test('from the page, the timeline and the speed slider; a focused button is activated, never also toggled', async ({
    dash,
  }) => {
    const { page } = dash;
    const play = dash.byId(testIds.play);
    await dash.settled();
    await expect(play).toHaveAttribute('aria-pressed', 'false');

    // The page itself (nothing focused): Space plays, Space again pauses.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press(' ');
    await expect(play).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press(' ');
    await expect(play).toHaveAttribute('aria-pressed', 'false');

    // The timeline and the speed slider do nothing with Space themselves: it plays there too.
    for (const id of [testIds.timeline, testIds.speed]) {
      await dash.byId(id).focus();
      await page.keyboard.press(' ');
      await expect(play, id).toHaveAttribute('aria-pressed', 'true');
      await page.keyboard.press(' ');
      await expect(play, id).toHaveAttribute('aria-pressed', 'false');
    }

    // The Play button focused: Space clicks it — exactly one toggle (two would leave it paused).
    await play.focus();
    await page.keyboard.press(' ');
    await expect(play).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press(' ');
    await expect(play).toHaveAttribute('aria-pressed', 'false');

    // Another button focused: Space is that button's (step forward one event), play stays off.
    const before = await dash.api('cursor');
    await dash.byId(testIds.stepForward).focus();
    await page.keyboard.press(' ');
    await expect.poll(async () => (await dash.api('cursor')).idx).toBe(before.idx + 1);
    await expect(play).toHaveAttribute('aria-pressed', 'false');

    // A guarantee just clicked (its radio focused and checked): Space plays, as docs/page.md says.
    await dash.setGuarantee('At-most-once');
    await dash.settled();
    await expect(page.locator('input[type="radio"]:focus:checked')).toHaveCount(1);
    await page.keyboard.press(' ');
    await expect(play).toHaveAttribute('aria-pressed', 'true');
  });

  test('a fault menu closed (Escape, a fault chosen): Space on its button plays, not opens it again; tabbed to, Space opens it', async ({
    dash,
  }) => {
    const { page } = dash;
    const kb = page.keyboard;
    const play = dash.byId(testIds.play);
    const menu = dash.byId(testIds.faultMenu);
    await dash.settled();
    const head = dash.component('consumer-0').locator('.component-head').first();
    // Tabbed to (focus coming from elsewhere): the button keeps Space, which opens its menu.
    await dash.component('producer').locator('.component-head').first().focus();
    for (let i = 0; i < 10 && !(await head.evaluate((el) => el === document.activeElement)); i++)
      await kb.press('Tab');
    await expect(head).toBeFocused();
    await kb.press(' ');
    await expect(menu).toBeVisible();
    await expect(play).toHaveAttribute('aria-pressed', 'false');
    // Escape: the menu closes, the focus is back on the button; Space now plays, then pauses.
    await kb.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(head).toBeFocused();
    await kb.press(' ');
    await expect(play).toHaveAttribute('aria-pressed', 'true');
    await expect(menu).toHaveCount(0);
    await kb.press(' ');
    await expect(play).toHaveAttribute('aria-pressed', 'false');
    await expect(menu).toHaveCount(0);
    // Enter on it still opens the menu; choosing a fault closes it, and Space plays again.
    await kb.press('Enter');
    await expect(menu).toBeVisible();
    await kb.press('Enter');
    await dash.settled();
    await expect(menu).toHaveCount(0);
    await expect(head).toBeFocused();
    await kb.press(' ');
    await expect(play).toHaveAttribute('aria-pressed', 'true');
    await expect(menu).toHaveCount(0);
    await kb.press(' ');
    await expect(play).toHaveAttribute('aria-pressed', 'false');
    // Tab away and back (Shift+Tab): reached anew, the button's Space opens the menu again.
    await kb.press('Tab');
    await kb.press('Shift+Tab');
    await expect(head).toBeFocused();
    await kb.press(' ');
    await expect(menu).toBeVisible();
    await expect(play).toHaveAttribute('aria-pressed', 'false');
    expect(dash.errors).toEqual([]);
  });

  test('Shift+arrows step one engine event from the page; a text field keeps Space', async ({
    dash,
  }) => {
    const { page } = dash;
    await dash.settled();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const start = (await dash.api('cursor')).idx;
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowLeft');
    expect((await dash.api('cursor')).idx).toBe(start + 1);

    const seed = dash.byId(testIds.seedInput);
    await seed.fill('1');
    await seed.press('End');
    await seed.press(' ');
    await expect(seed).toHaveValue('1 ');
    await expect(dash.byId(testIds.play)).toHaveAttribute('aria-pressed', 'false');
  });
});

test.describe('the seed field', () => {
  test('an invalid seed is refused with the reason and the range; the run keeps its seed', async ({
    dash,
  }) => {
    await dash.settled();
    const seed = dash.byId(testIds.seedInput);
    const error = dash.byId(testIds.seedError);
    await expect(seed).toHaveValue('1');
    await expect(seed.locator('..')).toHaveAttribute('title', /every random choice/);
    const hash = await dash.api('traceHash');

    const cases: [string, string][] = [
      ['', 'the seed is empty'],
      ['abc', '“abc” is not a number'],
      ['-1', '“-1” is negative'],
      ['1.5', '“1.5” is not a whole number'],
      ['4294967296', '“4294967296” is more than 4,294,967,295'],
    ];
    for (const [typed, reason] of cases) {
      await seed.fill(typed);
      await seed.press('Enter');
      await expect(error).toHaveText(
        `Not a seed: ${reason}. A seed is a whole number from 0 to 4,294,967,295; the run keeps seed 1.`,
      );
      await expect(seed).toHaveAttribute('aria-invalid', 'true');
      await expect(seed).toHaveValue(typed);
      await dash.settled();
      expect(await dash.api('traceHash')).toBe(hash);
      expect(await dash.api('scenario')).toMatchObject({ seed: 1 });
    }

    // Escape puts the run's seed back; a valid seed clears the error and runs.
    await seed.press('Escape');
    await expect(seed).toHaveValue('1');
    await expect(error).toHaveCount(0);
    await seed.fill('4294967295');
    await seed.press('Enter');
    await dash.settled();
    await expect(error).toHaveCount(0);
    expect(await dash.api('scenario')).toMatchObject({ seed: 4294967295 });
    await expect(dash.byId(testIds.seedInput)).toHaveValue('4294967295');
  });
});

test('the producer counts records sent, acknowledged and retried', async ({ dash }) => {
  // lost-ack-retry/idempotence-off: 10 events, e3's acknowledgement lost, so the producer
  // retries e3's batch (one record, linger.ms 0) and the broker appends it again.
  await dash.pickPreset('lost-ack-retry/idempotence-off');
  const producer = dash.component('producer');
  await expect(producer.locator('dt')).toContainText(['records sent', 'acked', 'retried']);
  await expect(dash.byId(testIds.producerSent)).toHaveText('0 / 10');
  await dash.toEnd();
  await expect(dash.byId(testIds.producerSent)).toHaveText('10 / 10');
  await expect(dash.byId(testIds.producerAcked)).toHaveText('10');
  await expect(dash.byId(testIds.producerRetried)).toHaveText('1');
});

test.describe('number fields refuse what the schema refuses, and always show the scenario', () => {
  test('a refused knob combination, undone, shows the value the run uses again', async ({
    dash,
  }) => {
    const { page } = dash;
    await dash.pickPreset('at-least-once');
    await page.getByRole('tab', { name: 'Knobs' }).click();
    const knobs = dash.byId(testIds.knobs);
    const idem = knobs.locator('[data-knob="producer.enable.idempotence"]').getByRole('combobox');
    const inFlight = knobs
      .locator('[data-knob="producer.max.in.flight.requests.per.connection"]')
      .getByRole('textbox');
    const before = await inFlight.inputValue();
    const idemBefore = await idem.inputValue();
    expect(idemBefore).not.toBe('true');
    await idem.selectOption('true');
    await dash.settled();
    await inFlight.fill('10');
    await inFlight.press('Tab');
    await expect(dash.byId(testIds.runStatus)).toHaveAttribute('data-status', 'invalid');
    await expect(dash.byId(testIds.issues)).toContainText(
      'must be set to at most 5. Current value is 10.',
    );
    await expect(inFlight).toHaveValue('10');

    // Undo the refused edit: the field shows the value the scenario has again.
    await page.locator('h1').click();
    await page.keyboard.press('Control+z');
    await expect(dash.byId(testIds.runStatus)).not.toHaveAttribute('data-status', 'invalid');
    await expect(inFlight).toHaveValue(before);
    // Undo idempotence too: still the scenario's value, and redo brings the refused one back.
    await page.keyboard.press('Control+z');
    await dash.settled();
    await expect(idem).toHaveValue(idemBefore);
    await expect(inFlight).toHaveValue(before);
    await page.keyboard.press('Control+Shift+z');
    await page.keyboard.press('Control+Shift+z');
    await expect(inFlight).toHaveValue('10');
    await expect(dash.byId(testIds.runStatus)).toHaveAttribute('data-status', 'invalid');
  });

  test('a number knob outside its schema range is refused beside the field, not applied', async ({
    dash,
  }) => {
    const { page } = dash;
    await dash.pickPreset('at-least-once');
    await page.getByRole('tab', { name: 'Knobs' }).click();
    const row = dash.byId(testIds.knobs).locator('[data-knob="producer.retries"]');
    const retries = row.getByRole('textbox');
    const error = row.getByTestId(testIds.knobError);
    const before = ((await dash.api('scenario')) as { producer?: Record<string, unknown> }).producer
      ?.retries;
    const shown = await retries.inputValue();
    const hash = await dash.api('traceHash');
    const cases: [string, string][] = [
      ['-1', '“-1” is negative'],
      ['2.5', '“2.5” is not a whole number'],
      ['2147483648', '“2147483648” is more than 2,147,483,647'],
    ];
    for (const [typed, reason] of cases) {
      await retries.fill(typed);
      await retries.press('Enter');
      await expect(error).toHaveText(
        `Not applied: ${reason}. retries is a whole number from 0 to 2,147,483,647; the run keeps ${Number(shown).toLocaleString('en-US')}.`,
      );
      await expect(retries).toHaveAttribute('aria-invalid', 'true');
      await expect(retries).toHaveValue(typed);
      await dash.settled();
      expect(await dash.api('traceHash')).toBe(hash);
      expect(
        ((await dash.api('scenario')) as { producer?: Record<string, unknown> }).producer?.retries,
      ).toBe(before);
    }
    await expect(dash.byId(testIds.runStatus)).not.toHaveAttribute('data-status', 'invalid');
    // A valid value clears the error and is applied as typed.
    await retries.fill('3');
    await retries.press('Enter');
    await dash.settled();
    await expect(error).toHaveCount(0);
    expect(
      ((await dash.api('scenario')) as { producer?: Record<string, unknown> }).producer?.retries,
    ).toBe(3);
  });

  test('an armed-from time beyond the schema’s limit is refused in the fault editor', async ({
    dash,
  }) => {
    await dash.pickPreset('at-least-once');
    await dash.toEnd();
    const markers = await dash.byId(testIds.faultMarker).count();
    expect(markers).toBeGreaterThan(0);
    await dash.byId(testIds.faultMarker).first().click();
    const at = dash.byId(testIds.faultAt);
    const before = await at.inputValue();
    const faults = JSON.stringify(((await dash.api('scenario')) as { faults?: unknown[] }).faults);
    await at.fill('99999999999');
    await at.press('Enter');
    await expect(dash.byId(testIds.faultAtError)).toHaveText(
      'Not applied: armed from must be between 0 ms and 7 days (604,800,000 ms), a whole number: “99999999999” is more than 604,800,000.',
    );
    await expect(at).toHaveAttribute('aria-invalid', 'true');
    await expect(dash.byId(testIds.faultDetails)).toBeVisible();
    await expect(dash.byId(testIds.faultMarker)).toHaveCount(markers);
    await dash.settled();
    await expect(dash.byId(testIds.runStatus)).not.toHaveAttribute('data-status', 'invalid');
    expect(JSON.stringify(((await dash.api('scenario')) as { faults?: unknown[] }).faults)).toBe(
      faults,
    );
    // Escape puts the fault's time back.
    await at.press('Escape');
    await expect(at).toHaveValue(before);
    await expect(dash.byId(testIds.faultAtError)).toHaveCount(0);
  });
});

test('Escape closes the Share popover and the Export menu, focus back on their button', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.settled();
  const share = dash.byId(testIds.shareButton);
  await share.click();
  await expect(dash.byId(testIds.shareUrl)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dash.byId(testIds.shareUrl)).toHaveCount(0);
  await expect(share).toHaveAttribute('aria-expanded', 'false');
  await expect(share).toBeFocused();
  // Also with the focus in the popover's link field.
  await share.click();
  await dash.byId(testIds.shareUrl).focus();
  await page.keyboard.press('Escape');
  await expect(dash.byId(testIds.shareUrl)).toHaveCount(0);
  await expect(share).toBeFocused();

  const exp = dash.byId(testIds.exportButton);
  await exp.click();
  await expect(dash.byId(testIds.exportItem).first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dash.byId(testIds.exportItem)).toHaveCount(0);
  await expect(exp).toHaveAttribute('aria-expanded', 'false');
  await expect(exp).toBeFocused();
});
