/**
 * The guarantee switch shows the scenario's claim — what the verdict checks — and its badge
 * whether the knobs follow that guarantee's recipe. It never turns a running scenario into a
 * refused one: an option whose switch the validator would refuse (here, at-most-once turning
 * checkpointing off under a crash at a checkpoint step) is disabled, with its reason as a tooltip
 * and as the radio's description.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { Guarantee } from '../engine';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LabProvider } from '../store/LabContext';
import { GuaranteeBadge, GuaranteeRadios } from './GuaranteeRadios';
import { testIds } from './testIds';
import { createLab } from '../store/labStore';
import { findPreset } from '../scenarios';
import { inlineRunner, presetLab } from './testLab';

// Whole runs on a loaded two-core machine: its slowest test took 1.5 s in a full CI run
// (this file 3.6 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

const REASON =
  'fault "TaskManager crash" crashes at a checkpoint step (during-commit), and at-most-once turns checkpointing off';

async function mount(ref: string, lab = presetLab(ref)) {
  render(
    <LabProvider lab={lab}>
      <GuaranteeRadios name="guarantee" />
      <GuaranteeBadge />
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

  it('the chosen option is the claim, with a badge saying whether the knobs follow its recipe', async () => {
    // Claims exactly-once; its plain INSERT sink is at-least-once's recipe, not exactly-once's.
    await mount('flink-checkpoint-replay/plain-sink');
    expect(checked()).toEqual(['exactly-once']);
    const badge = screen.getByTestId(testIds.guaranteeLabel);
    expect(badge.textContent).toBe('✎ own settings');
    expect(badge.title).toBe(
      '1 knob differs from the exactly-once recipe here (statement). The verdict checks exactly-once all the same; choose Exactly-once again to apply its recipe (What this sets lists it).',
    );
    const eo = screen.getByRole('radio', { name: 'Exactly-once' });
    const note =
      '1 knob differs from the exactly-once recipe here (statement): choose Exactly-once again to apply the recipe';
    expect(eo.closest('label')!.title).toBe(note);
    expect(document.getElementById(eo.getAttribute('aria-describedby')!)!.textContent).toBe(note);
  });

  it('a preset whose knobs follow no recipe still shows its claim', async () => {
    await mount('flink-checkpoint-replay/2pc-read-committed');
    expect(checked()).toEqual(['exactly-once']);
    expect(screen.getByTestId(testIds.guaranteeLabel).title).toContain(
      '1 knob differs from the exactly-once recipe here (isolation.level of ',
    );
  });

  it('a scenario without a claim shows the schema default, at-least-once', async () => {
    const s = structuredClone(findPreset('at-least-once')!.variant.scenario);
    delete (s as { claim?: unknown }).claim;
    await mount('', createLab({ runner: inlineRunner, initial: s }));
    expect(checked()).toEqual(['at-least-once']);
    expect(screen.getByTestId(testIds.guaranteeLabel).textContent).toBe('✓ recipe');
  });

  it('choosing the claimed option again applies its recipe; once it is applied, nothing', async () => {
    const lab = await mount('flink-checkpoint-replay/plain-sink');
    const eo = screen.getByRole('radio', { name: 'Exactly-once' });
    fireEvent.click(eo);
    const applied = lab.app.getState().scenario;
    expect(applied.claim).toBe('exactly-once');
    expect(applied.sink).toMatchObject({ statement: 'on-conflict-do-update' });
    expect(checked()).toEqual(['exactly-once']);
    const badge = screen.getByTestId(testIds.guaranteeLabel);
    expect(badge.textContent).toBe('✓ recipe');
    expect(badge.title).toBe('The knobs follow the exactly-once recipe (What this sets lists it).');
    expect(eo.hasAttribute('aria-describedby')).toBe(false);
    expect(eo.closest('label')!.title).toBe('');
    // Again: nothing to apply, no history entry.
    const past = lab.app.getState().past.length;
    fireEvent.click(eo);
    expect(lab.app.getState().scenario).toBe(applied);
    expect(lab.app.getState().past).toHaveLength(past);
    await act(() => lab.actions.settled());
  });

  it('another option applies its recipe and becomes the claim', async () => {
    const lab = await mount('flink-checkpoint-replay/plain-sink');
    fireEvent.click(screen.getByRole('radio', { name: 'At-least-once' }));
    expect(lab.app.getState().scenario.claim).toBe('at-least-once');
    expect(checked()).toEqual(['at-least-once']);
    expect(screen.getByTestId(testIds.guaranteeLabel).textContent).toBe('✓ recipe');
    await act(() => lab.actions.settled());
  });

  it('undone under the focus, the switch moves the focus to the option checked now', async () => {
    // Ctrl+Z left the focus on Exactly-once with At-least-once checked: the next arrow walked
    // from an option the screen no longer showed chosen.
    const lab = await mount('at-least-once');
    const eo = screen.getByRole('radio', { name: 'Exactly-once' });
    eo.focus();
    fireEvent.click(eo);
    await act(() => lab.actions.settled());
    expect(checked()).toEqual(['exactly-once']);
    expect(document.activeElement).toBe(eo);
    act(() => lab.actions.undo());
    await act(() => lab.actions.settled());
    expect(checked()).toEqual(['at-least-once']);
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'At-least-once' }));
  });

  it('Space on the claimed option applies its recipe where the knobs differ, and only there', async () => {
    const lab = await mount('flink-checkpoint-replay/plain-sink');
    const eo = screen.getByRole('radio', { name: 'Exactly-once' });
    const first = new KeyboardEvent('keydown', { key: ' ', bubbles: true, cancelable: true });
    act(() => void eo.dispatchEvent(first));
    expect(first.defaultPrevented).toBe(true);
    expect(lab.app.getState().scenario.sink).toMatchObject({ statement: 'on-conflict-do-update' });
    // The knobs follow the recipe now: Space is left to the page (play/pause).
    const second = new KeyboardEvent('keydown', { key: ' ', bubbles: true, cancelable: true });
    act(() => void eo.dispatchEvent(second));
    expect(second.defaultPrevented).toBe(false);
    await act(() => lab.actions.settled());
  });
});

/** The guarantees whose radio is checked. */
function checked(): Guarantee[] {
  return screen
    .getAllByRole('radio')
    .filter((r) => (r as HTMLInputElement).checked)
    .map((r) => (r as HTMLInputElement).value as Guarantee);
}
