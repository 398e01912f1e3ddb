/**
 * The dashboard against the built page: break the pipeline by direct manipulation and read what
 * happened. Every exact count below is derived by hand from the scenario (see each comment); the
 * scenarios are the foundation presets (src/scenarios/foundation.ts): 20 payments p-1..p-20,
 * amount 10·i, one every 50 ms; the consumer starts at 40 s, reads from the earliest offset and
 * polls 5 records at a time (max.poll.records = 5).
 * Settings (knobs, guarantee switch, seed, number fields): dashboard-settings.spec.ts; keyboard
 * and popovers: dashboard-keyboard.spec.ts.
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
  // Play and the run's end wait for the preset's question (issue 24): skipped first.
  await dash.skipQuestion();
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
  // Waits for the panel's history (a count read at once raced its render on a loaded machine).
  await expect(rows).not.toHaveCount(0);
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

test('the producer counts records sent, acknowledged and retried', async ({ dash }) => {
  // lost-ack-retry/idempotence-off: 10 events, e3's acknowledgement lost, so the producer
  // retries e3's batch (one record, linger.ms 0) and the broker appends it again.
  await dash.pickPreset('lost-ack-retry/idempotence-off');
  // Play and the run's end wait for the preset's question (issue 24): skipped first.
  await dash.skipQuestion();
  const producer = dash.component('producer');
  await expect(producer.locator('dt')).toContainText(['records sent', 'acked', 'retried']);
  await expect(dash.byId(testIds.producerSent)).toHaveText('0 / 10');
  await dash.toEnd();
  await expect(dash.byId(testIds.producerSent)).toHaveText('10 / 10');
  await expect(dash.byId(testIds.producerAcked)).toHaveText('10');
  await expect(dash.byId(testIds.producerRetried)).toHaveText('1');
});
