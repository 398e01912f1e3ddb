/**
 * A knob left unset whose value in effect depends on the pipeline (a Kafka sink's
 * transaction.timeout.ms: 1 h under Flink's KafkaSink) shows that value and says it is unset.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Lab } from '../../store/labStore';
import { LabProvider } from '../../store/LabContext';
import { testIds } from '../testIds';
import { presetLab } from '../testLab';
import { Knobs } from './Knobs';

async function mount(ref: string): Promise<Lab> {
  const lab = presetLab(ref);
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
