/**
 * The guarantee switch never turns a running scenario into a refused one: an option whose switch
 * the validator would refuse (here, at-most-once turning checkpointing off under a crash at a
 * checkpoint step) is disabled, with its reason as a tooltip and as the radio's description.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LabProvider } from '../store/LabContext';
import { GuaranteeRadios } from './GuaranteeRadios';
import { presetLab } from './testLab';

const REASON =
  'fault "TaskManager crash" crashes at a checkpoint step (during-commit), and at-most-once turns checkpointing off';

async function mount(ref: string) {
  const lab = presetLab(ref);
  render(
    <LabProvider lab={lab}>
      <GuaranteeRadios name="guarantee" />
    </LabProvider>,
  );
  await act(() => lab.actions.settled());
  return lab;
}

describe('GuaranteeRadios', () => {
  afterEach(cleanup);

  it('a guarantee the fault cannot exist under is disabled, with the reason as tooltip and description', async () => {
    const lab = await mount('flink-commit-phase-crash/during-commit');
    const amo = screen.getByRole('radio', { name: 'At-most-once' }) as HTMLInputElement;
    expect(amo.disabled).toBe(true);
    expect(amo.closest('label')!.title).toBe(`At-most-once is unavailable: ${REASON}`);
    const why = document.getElementById(amo.getAttribute('aria-describedby')!)!;
    expect(why.textContent).toBe(`At-most-once is unavailable: ${REASON}`);
    // The others stay available, with no description.
    for (const name of ['At-least-once', 'Exactly-once']) {
      const r = screen.getByRole('radio', { name }) as HTMLInputElement;
      expect(r.disabled, name).toBe(false);
      expect(r.hasAttribute('aria-describedby'), name).toBe(false);
    }
    const before = lab.app.getState().scenario;
    fireEvent.click(amo);
    expect(lab.app.getState().scenario).toBe(before);
  });

  it('the store refuses the switch too, and says why', async () => {
    const lab = await mount('flink-commit-phase-crash/during-commit');
    const before = lab.app.getState().scenario;
    act(() => lab.actions.setGuarantee('at-most-once'));
    expect(lab.app.getState().scenario).toBe(before);
    expect(lab.app.getState().notice).toBe(`at-most-once is unavailable: ${REASON}`);
  });

  it('every option is enabled where every switch gives a valid scenario', async () => {
    await mount('at-least-once');
    for (const r of screen.getAllByRole('radio'))
      expect((r as HTMLInputElement).disabled).toBe(false);
  });
});
