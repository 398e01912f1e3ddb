/**
 * A knob left unset whose value in effect depends on the pipeline (a Kafka sink's
 * transaction.timeout.ms: 1 h under Flink's KafkaSink) shows that value and says it is unset.
 * A knob that can be off (the checkpoint interval) shows off when the scenario's value is null,
 * written or by default, and comes back on with its last number. Turning the XA sink on sets
 * statement retries to 0 in the same edit; a refused knob's row says why.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScenarioInput } from '../../engine';
import { getKnob } from '../../scenarios';
import { createLab, type Lab } from '../../store/labStore';
import { LabProvider } from '../../store/LabContext';
import { testIds } from '../testIds';
import { inlineRunner, presetLab } from '../testLab';
import { Knobs } from './Knobs';

// Whole runs on a loaded two-core machine: its slowest test took 3.8 s in a full CI run
// (this file 9.0 s), so each gets 20 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 20_000 });

/** Render the Knobs panel on `lab`, once its run has settled. */
async function mountLab(lab: Lab): Promise<Lab> {
  render(
    <LabProvider lab={lab}>
      <Knobs />
    </LabProvider>,
  );
  await act(() => lab.actions.settled());
  return lab;
}

const row = (path: string) =>
  screen.getAllByTestId(testIds.knob).find((r) => r.dataset.knob === path)!;

describe('Knobs: an unset knob with a pipeline default', () => {
  afterEach(cleanup);

  it('KafkaSink left unset shows 3600000 and "unset"; set, the word goes', async () => {
    const lab = await mount('flink-commit-phase-crash/timeout-left-unset');
    const timeout = row('sink.transaction.timeout.ms');
    expect(timeout.querySelector('input')!.value).toBe('3600000');
    expect(timeout.querySelector(`[data-testid="${testIds.knobUnset}"]`)).not.toBeNull();
    act(() => lab.actions.setKnob('sink.transaction.timeout.ms', 900_000));
    await act(() => lab.actions.settled());
    const after = row('sink.transaction.timeout.ms');
    expect(after.querySelector('input')!.value).toBe('900000');
    expect(after.querySelector(`[data-testid="${testIds.knobUnset}"]`)).toBeNull();
  });
});

describe('Knobs: a refused edit', () => {
  afterEach(cleanup);

  it('the field shows the value written, not the last valid run’s', async () => {
    // Exactly-once sets enable.idempotence=true; acks=1 then conflicts (Kafka's ConfigException).
    const lab = await mount('effectively-once');
    act(() => lab.actions.setGuarantee('exactly-once'));
    await act(() => lab.actions.settled());
    act(() => lab.actions.setKnob('producer.acks', '1'));
    await act(() => lab.actions.settled());
    expect(lab.app.getState().status).toBe('invalid');
    expect(row('producer.acks').querySelector('select')!.value).toBe('1');
  });
});

const INTERVAL = 'processor.execution.checkpointing.interval';
const inputs = (path: string) => [...row(path).querySelectorAll('input')];

const mount = (ref: string) => mountLab(presetLab(ref));
const mountScenario = (initial: ScenarioInput) =>
  mountLab(createLab({ runner: inlineRunner, initial }));

const flinkJob = (interval?: number | null): ScenarioInput => ({
  version: 1,
  name: 'flink job',
  workload: { generate: { count: 20 } },
  processor: {
    type: 'flink',
    ...(interval === undefined ? {} : { 'execution.checkpointing.interval': interval }),
  },
});

describe('Knobs: a number that can be off (execution.checkpointing.interval)', () => {
  afterEach(cleanup);

  it('ticking "off" ticks the box and empties the field; unticking brings the last number back', async () => {
    const lab = await mount('flink-checkpoint-replay/plain-sink');
    act(() => lab.actions.setKnob(INTERVAL, 2500));
    await act(() => lab.actions.settled());
    const [box, field] = inputs(INTERVAL);
    expect([box!.checked, field!.value, field!.disabled]).toEqual([false, '2500', false]);

    fireEvent.click(box!);
    await act(() => lab.actions.settled());
    expect(getKnob(lab.app.getState().scenario, INTERVAL)).toBeNull();
    const [offBox, offField] = inputs(INTERVAL);
    expect([offBox!.checked, offField!.value, offField!.disabled]).toEqual([true, '', true]);

    fireEvent.click(offBox!);
    await act(() => lab.actions.settled());
    expect(getKnob(lab.app.getState().scenario, INTERVAL)).toBe(2500);
    expect(lab.app.getState().notice).toBe(
      'Set execution.checkpointing.interval to 2500 ms — its last value',
    );
    const [onBox, onField] = inputs(INTERVAL);
    expect([onBox!.checked, onField!.value, onField!.disabled]).toEqual([false, '2500', false]);
  });

  it.each([
    ['unset (Flink’s default)', undefined],
    ['written null (as a reloaded or shared scenario has it)', null],
  ] as const)(
    '%s: ticked, the field empty; turned on → 1000 ms, and the notice says why',
    async (_, interval) => {
      const lab = await mountScenario(flinkJob(interval));
      expect(lab.app.getState().status).toBe('ready');
      const [box, field] = inputs(INTERVAL);
      expect([box!.checked, field!.value, field!.disabled]).toEqual([true, '', true]);

      fireEvent.click(box!);
      await act(() => lab.actions.settled());
      expect(getKnob(lab.app.getState().scenario, INTERVAL)).toBe(1000);
      expect(lab.app.getState().notice).toMatch(
        /^Set execution.checkpointing.interval to 1000 ms — Flink has no default interval/,
      );
      expect(inputs(INTERVAL)[0]!.checked).toBe(false);
      expect(inputs(INTERVAL)[1]!.value).toBe('1000');
    },
  );

  it('off under an at-most-once claim is that recipe’s value: no “not the at-most-once recipe” mark', async () => {
    await mountScenario({ ...flinkJob(null), claim: 'at-most-once' });
    expect(inputs(INTERVAL)[0]!.checked).toBe(true);
    expect(row(INTERVAL).querySelector('.changed')).toBeNull();
  });
});

const MAX_OFFSETS = 'processor.maxOffsetsPerTrigger';

describe('Knobs: a number whose off is its absence (Spark’s maxOffsetsPerTrigger)', () => {
  afterEach(cleanup);

  it('the Spark story’s 10 is shown; "no limit" leaves the knob out, and unticking brings 10 back', async () => {
    // It had no row: the setup's "10 records per micro-batch (maxOffsetsPerTrigger = 10)" could
    // be neither seen nor changed in the Knobs tab.
    const lab = await mount('spark-batch-replay/append');
    const [box, field] = inputs(MAX_OFFSETS);
    expect(row(MAX_OFFSETS).textContent).toContain('maxOffsetsPerTrigger');
    expect([box!.checked, field!.value, field!.disabled]).toEqual([false, '10', false]);

    fireEvent.click(box!);
    await act(() => lab.actions.settled());
    // Left out, not null (the schema takes no null): Spark's default, no limit.
    const processor = lab.app.getState().scenario.processor as Record<string, unknown>;
    expect('maxOffsetsPerTrigger' in processor).toBe(false);
    expect(lab.app.getState().status).toBe('ready');
    const [offBox, offField] = inputs(MAX_OFFSETS);
    expect([offBox!.checked, offField!.value, offField!.disabled]).toEqual([true, '', true]);
    expect(offBox!.getAttribute('aria-label')).toBe('maxOffsetsPerTrigger: no limit');

    fireEvent.click(offBox!);
    await act(() => lab.actions.settled());
    expect(getKnob(lab.app.getState().scenario, MAX_OFFSETS)).toBe(10);
    expect(lab.app.getState().notice).toBe('Set maxOffsetsPerTrigger to 10 — its last value');
  });
});

describe('Knobs: the XA sink and its statement retries', () => {
  afterEach(cleanup);

  it('ticking xa on a table sink with the default retries (3) sets retries 0 in the same edit', async () => {
    const lab = await mount('flink-checkpoint-replay/plain-sink');
    const past = lab.app.getState().past.length;
    fireEvent.click(row('sink.xa').querySelector('input')!);
    await act(() => lab.actions.settled());
    const s = lab.app.getState();
    expect(s.status).toBe('ready');
    expect(s.notice).toBe(
      'Set JdbcSink.exactlyOnceSink (XA) to true — and statement retries to 0, as Flink’s XA sink requires',
    );
    expect(row('sink.xa').querySelector('input')!.checked).toBe(true);
    expect(row('sink.retries').querySelector('input')!.value).toBe('0');
    // One edit: one undo takes both back.
    expect(s.past.length).toBe(past + 1);
    act(() => lab.actions.undo());
    await act(() => lab.actions.settled());
    expect(getKnob(lab.app.getState().scenario, 'sink.xa')).toBeUndefined();
    expect(getKnob(lab.app.getState().scenario, 'sink.retries')).toBeUndefined();
    expect(row('sink.retries').querySelector('input')!.value).toBe('3');
  });

  it('refused for a knob’s path: that row says why (statement retries 2 under XA), the others do not', async () => {
    const lab = await mount('flink-checkpoint-replay/2pc-jdbc-xa');
    expect(screen.queryAllByTestId(testIds.knobError)).toHaveLength(0);
    act(() => lab.actions.setKnob('sink.retries', 2));
    await act(() => lab.actions.settled());
    expect(lab.app.getState().status).toBe('invalid');
    const retries = row('sink.retries');
    expect(retries.dataset.refused).toBe('true');
    expect(retries.querySelector(`[data-testid="${testIds.knobError}"]`)!.textContent).toMatch(
      /^Refused here: the JDBC exactly-once \(XA\) sink requires maxRetries equal to 0/,
    );
    expect(row('sink.xa').dataset.refused).toBeUndefined();
    expect(screen.getAllByTestId(testIds.knobError)).toHaveLength(1);
    act(() => lab.actions.undo());
    await act(() => lab.actions.settled());
    expect(screen.queryAllByTestId(testIds.knobError)).toHaveLength(0);
  });
});

describe('Knobs: a list of processing times (one slow record)', () => {
  afterEach(cleanup);

  it('shows the list in place of the time per record; an edit writes numbers, a word is refused naming its element', async () => {
    const lab = await mount('poll-timeout-slow-batch/plain-insert');
    const paths = screen.getAllByTestId(testIds.knob).map((r) => r.dataset.knob);
    expect(paths).toContain('processor.processing.durationsMs');
    expect(paths).not.toContain('processor.processing.perRecordMs');
    const input = () => row('processor.processing.durationsMs').querySelector('input')!;
    expect(input().value).toMatch(/^1000, 1000, 400000, 1000, /);
    fireEvent.change(input(), { target: { value: '1000, 2000' } });
    fireEvent.blur(input());
    await act(() => lab.actions.settled());
    expect(getKnob(lab.app.getState().scenario, 'processor.processing.durationsMs')).toEqual([
      1000, 2000,
    ]);
    // No record outlasts max.poll.interval.ms any more: 10 rows, nobody leaves the group.
    expect(lab.app.getState().status).toBe('ready');
    fireEvent.change(input(), { target: { value: '1000, slow' } });
    fireEvent.blur(input());
    await act(() => lab.actions.settled());
    expect(lab.app.getState().status).toBe('invalid');
    expect(row('processor.processing.durationsMs').textContent).toContain(
      'processor.processing.durationsMs.1',
    );
    // Emptied: the list goes, and the time per record is back.
    fireEvent.change(input(), { target: { value: '' } });
    fireEvent.blur(input());
    await act(() => lab.actions.settled());
    expect(
      getKnob(lab.app.getState().scenario, 'processor.processing.durationsMs'),
    ).toBeUndefined();
    expect(screen.getAllByTestId(testIds.knob).map((r) => r.dataset.knob)).toContain(
      'processor.processing.perRecordMs',
    );
  });
});

describe('Knobs: the sink key, an identifying column or a content tuple (issue 26 §2)', () => {
  afterEach(cleanup);

  // content-key-on-conflict (src/scenarios/library/contentKey.ts): S13's loop, ON CONFLICT DO
  // NOTHING, e7 a real payment with e6's time and amount (09:15:06, 60), e6..e10 replayed.
  const rowsAt = (lab: Lab) => {
    const v = lab.app.getState().view!.verdict;
    return v.points.find((p) => p.name === v.primary)!.totals;
  };
  const keySelect = () => row('sink.key').querySelector('select')!;
  const column = (name: string) =>
    screen
      .getByRole('group', { name: 'key column: content columns' })
      .querySelector<HTMLInputElement>(`input[type=checkbox]:is([data-column="${name}"])`);

  it('event id → content tuple (time, amount): e7 merges into e6’s row; back to the event id', async () => {
    const lab = await mount('content-key-on-conflict/event-id');
    // Keyed by the event id: the replay conflicts row by row, e7 is its own key — 10 rows, 540.
    expect(keySelect().value).toBe('business-id');
    expect(rowsAt(lab)).toMatchObject({ rows: 10, lost: 0, observedSum: 540 });
    fireEvent.change(keySelect(), { target: { value: 'content-tuple' } });
    await act(() => lab.actions.settled());
    // The tuple starts as (time, amount): ON CONFLICT (event_time, amount) takes e7 for e6
    // ("simply avoids inserting a row", https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT):
    // 9 rows, 540 − 60 = 480, e7 lost — a false merge.
    expect(getKnob(lab.app.getState().scenario, 'sink.key')).toEqual(['time', 'amount']);
    expect(lab.app.getState().notice).toBe('Set key column to (time, amount)');
    expect(rowsAt(lab)).toMatchObject({ rows: 9, lost: 1, observedSum: 480 });
    expect(lab.app.getState().view!.verdict.explanations[0]).toMatchObject({
      fate: 'lost',
      events: ['e7'],
      sentence: expect.stringContaining('a real event lost (a false merge)'),
    });
    // Amount alone: e1..e10's amounts are 10·i except e7's (60 = e6's): the same merge.
    fireEvent.click(column('time')!);
    await act(() => lab.actions.settled());
    expect(getKnob(lab.app.getState().scenario, 'sink.key')).toEqual(['amount']);
    expect(rowsAt(lab)).toMatchObject({ rows: 9, lost: 1 });
    // The last column cannot be turned off: a key has one column at least.
    expect(column('amount')!.disabled).toBe(true);
    // Adding the user (absent from every payment, so equal): still (user, amount) for e6 and e7.
    fireEvent.click(column('user')!);
    await act(() => lab.actions.settled());
    expect(getKnob(lab.app.getState().scenario, 'sink.key')).toEqual(['user', 'amount']);
    fireEvent.change(keySelect(), { target: { value: 'business-id' } });
    await act(() => lab.actions.settled());
    expect(rowsAt(lab)).toMatchObject({ rows: 10, lost: 0, observedSum: 540 });
  });
});

describe('Knobs: a knob’s ⓘ', () => {
  afterEach(cleanup);

  // The tab names the sink's key "key column"; a scenario file and `sim --compare` need its path,
  // sink.key, which the page showed nowhere (docs/cli.md: "a knob by its dotted path").
  it('gives the path a scenario file and sim --compare use', async () => {
    await mount('lost-ack-retry');
    fireEvent.click(screen.getByRole('button', { name: 'About key column' }));
    expect(row('sink.key').querySelector('[role="note"]')!.textContent).toContain(
      'In a scenario file and sim --compare: sink.key',
    );
  });
});
