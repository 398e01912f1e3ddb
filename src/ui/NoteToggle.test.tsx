/**
 * Help that was only in hover tooltips on elements a keyboard cannot reach — the seed's "Nothing
 * in this scenario is random…", the "✎ own settings" badge's "1 knob differs…" — is now each
 * control's description (read by a screen reader on focus) and a note a press shows.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Lab } from '../store/labStore';
import { App } from './App';
import { testIds } from './testIds';
import { presetLab } from './testLab';

// Whole runs on a loaded two-core machine: its slowest test took 2.1 s in a full CI run
// (this file 3.2 s), so each gets 15 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 15_000 });

beforeAll(() => {
  HTMLCanvasElement.prototype.getContext = (() =>
    null) as typeof HTMLCanvasElement.prototype.getContext;
});

async function mount(ref: string): Promise<Lab> {
  const lab = presetLab(ref);
  render(<App lab={lab} />);
  await act(() => lab.actions.settled());
  return lab;
}

/** The text of the elements an element's aria-describedby names, joined as a reader says them. */
const description = (el: Element) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)!.textContent)
    .join(' ');

const NOTHING_RANDOM =
  'Nothing in this scenario is random (no random fault, no network jitter, no random workload): every seed gives this same run.';

describe('the seed: what it draws is not only in a tooltip', () => {
  afterEach(cleanup);

  it("is the field's description, and its ⓘ shows it with the general help", async () => {
    // at-least-once: scheduled faults, no jitter, listed events — nothing drawn from the seed.
    await mount('at-least-once');
    const seed = screen.getByTestId(testIds.seedInput);
    expect(description(seed)).toBe(NOTHING_RANDOM);
    const about = screen.getByTestId(testIds.seedAbout);
    const note = screen.getByTestId(testIds.seedNote);
    expect(about.tagName).toBe('BUTTON');
    expect(about.getAttribute('aria-label')).toBe('About the seed');
    expect(about.getAttribute('aria-expanded')).toBe('false');
    expect(note.hidden).toBe(true);
    expect(description(about)).toMatch(
      new RegExp(`^${NOTHING_RANDOM.replace(/[()]/g, '\\$&')} The seed drives every random choice`),
    );
    fireEvent.click(about);
    expect(about.getAttribute('aria-expanded')).toBe('true');
    expect(note.hidden).toBe(false);
    // Escape closes it; the focus stays on (returns to) the button.
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(note.hidden).toBe(true);
    expect(document.activeElement).toBe(about);
  });

  it('a refused seed: the error first, then what the seed draws', async () => {
    await mount('at-least-once');
    const seed = screen.getByTestId(testIds.seedInput);
    fireEvent.change(seed, { target: { value: 'abc' } });
    fireEvent.keyDown(seed, { key: 'Enter' });
    expect(description(seed)).toBe(
      `Not a seed: “abc” is not a number. A seed is a whole number from 0 to 4,294,967,295; the run keeps seed 1. ${NOTHING_RANDOM}`,
    );
  });
});

describe('the recipe badge: which knobs differ is not only in a tooltip', () => {
  afterEach(cleanup);

  it('is a button described by the detail, which it shows when pressed', async () => {
    // flink-checkpoint-replay/plain-sink claims exactly-once with a plain INSERT sink: one knob
    // (the statement) differs from the exactly-once recipe (GuaranteeRadios.test.tsx).
    await mount('flink-checkpoint-replay/plain-sink');
    const badge = screen.getByTestId(testIds.guaranteeLabel);
    const detail =
      '1 knob differs from the exactly-once recipe here (statement). The verdict checks exactly-once all the same; choose Exactly-once again to apply its recipe (What this sets lists it).';
    expect(badge.tagName).toBe('BUTTON');
    expect(badge.textContent).toBe('✎ own settings');
    expect(description(badge)).toBe(detail);
    const note = screen.getByTestId(testIds.guaranteeNote);
    expect(note.hidden).toBe(true);
    fireEvent.click(badge);
    expect(badge.getAttribute('aria-expanded')).toBe('true');
    expect(note.hidden).toBe(false);
    expect(note.textContent).toBe(detail);
    // A press elsewhere closes it.
    fireEvent.pointerDown(document.body);
    expect(note.hidden).toBe(true);
  });
});
