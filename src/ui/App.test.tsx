import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { markFirstScreen } from '../platform/address';
import type { Lab } from '../store/labStore';
import { App } from './App';
import { testIds } from './testIds';
import { REVEAL_WAITS } from './library/revealGuard';
import { presetLab } from './testLab';

// Whole runs on a loaded two-core machine: its slowest test took 2.8 s in a full CI run
// (this file 10.7 s), so each gets 15 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 15_000 });

beforeAll(() => {
  // jsdom has no canvas; the token layer copes with a null context.
  HTMLCanvasElement.prototype.getContext = (() =>
    null) as typeof HTMLCanvasElement.prototype.getContext;
});

async function mount(ref = 'at-least-once'): Promise<Lab> {
  const lab = presetLab(ref);
  // The page at its bare address, its first screen (as bootLab marks it): the store writes
  // `?preset=` into jsdom's one location, and a page opened on `?preset=` has no first line
  // (FirstLine.tsx).
  history.replaceState(null, '', '/');
  markFirstScreen(true);
  render(<App lab={lab} />);
  await act(() => lab.actions.settled());
  return lab;
}

const value = (id: string) => Number(screen.getByTestId(id).getAttribute('data-value'));

describe('App (jsdom)', () => {
  afterEach(cleanup);

  it('shows the counters of the cursor and the verdict of the run', async () => {
    const lab = await mount();
    expect(value(testIds.counterRows)).toBe(0);
    // The preset asks its question first: unanswered, the end (its counters are the answer) waits.
    act(() => lab.actions.seek(1e9));
    expect(value(testIds.counterRows)).toBe(0);
    expect(lab.app.getState().notice).toBe(REVEAL_WAITS);
    expect(screen.queryByTestId(testIds.verdict)).toBeNull();
    fireEvent.click(screen.getAllByTestId(testIds.outcomeShow)[0]!);
    expect(lab.app.getState().notice).toBeNull();
    act(() => lab.actions.seek(1e9));
    // at-least-once preset: 24 rows, 4 duplicates (foundation.ts, worked out by hand).
    expect(value(testIds.counterRows)).toBe(24);
    expect(value(testIds.counterDuplicates)).toBe(4);
    expect(screen.getByTestId(testIds.counterSum).textContent).toContain('$220 double-counted');
    expect(screen.getByTestId(testIds.verdict).getAttribute('data-observed')).toBe('at-least-once');
  });

  it('the counters say where they count: the sink, else the reader at the end of the pipeline', async () => {
    await mount();
    expect(screen.getByTestId(testIds.counterRows).textContent).toContain('rows in the sink');
    cleanup();
    await mount('flink-checkpoint-replay/2pc-read-committed');
    expect(screen.getByTestId(testIds.counterRows).textContent).toContain('rows at reader rc');
    expect(screen.getByTestId(testIds.counterMissing).textContent).toContain(
      'not at reader rc yet',
    );
  });

  it('a run cut off with work pending says so beside the verdict, and its missing count is not all "lost"', async () => {
    const lab = await mount();
    // 20 events one per 100 ms from 0; the consumer starts at 1 s and the run stops at 1.5 s:
    // whatever the loop had not written by then was still on its way.
    act(() =>
      lab.actions.loadScenario({
        version: 1,
        name: 'cut off',
        stopAtMs: 1500,
        workload: { generate: { count: 20, intervalMs: 100 } },
        processor: {
          type: 'consumer',
          'auto.offset.reset': 'earliest',
          startAtMs: 1000,
          processing: { perRecordMs: 100 },
        },
      }),
    );
    await act(() => lab.actions.settled());
    act(() => lab.actions.seek(1e9));
    expect(screen.getByTestId(testIds.verdictCutOff).textContent).toContain('Cut off at 1.500 s');
    expect(screen.getByTestId(testIds.counterMissing).textContent).toContain(
      'lost or unfinished at the stop',
    );
  });

  it('a run cut off with a component still waiting names it beside the verdict, with since when', async () => {
    const lab = await mount();
    // T1 = {e1, e2} commits; T2 = {e3} is begun at 100 ms (e3 sent), e3 appended at offset 3 at
    // 102 ms, and the application hangs with T2 open; transaction.timeout.ms (60 s) would end it,
    // the run stops at 10 s (src/engine/stuck.ts).
    act(() =>
      lab.actions.loadScenario({
        version: 1,
        name: 'open transaction',
        stopAtMs: 10_000,
        workload: {
          events: [0, 50, 100].map((at, i) => ({ id: `e${i + 1}`, amount: 10, at })),
        },
        producer: { 'transactional.id': 't-1', app: { eventsPerTransaction: 2 } },
        processor: {
          type: 'consumer',
          'auto.offset.reset': 'earliest',
          'isolation.level': 'read_committed',
        },
        faults: [{ kind: 'hang-transaction', transaction: 2 }],
      }),
    );
    await act(() => lab.actions.settled());
    act(() => lab.actions.seek(1e9));
    const items = within(screen.getByTestId(testIds.verdictStuck))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items[0]).toBe(
      'Still waiting: coordinator, since 100 ms, waits for the end of transaction 2 of t-1 (Ongoing)',
    );
    expect(items).toHaveLength(3);
  });

  it('the guarantee switch applies the recipe; the badge says own settings after a knob change', async () => {
    const lab = await mount();
    fireEvent.click(screen.getByLabelText('Exactly-once'));
    await act(() => lab.actions.settled());
    expect(lab.app.getState().scenario.claim).toBe('exactly-once');
    expect(screen.getByTestId(testIds.guaranteeLabel).textContent).toBe('✓ recipe');
    act(() => lab.actions.setKnob('sink.key', 'uuid-per-attempt'));
    await act(() => lab.actions.settled());
    expect(screen.getByTestId(testIds.guaranteeLabel).textContent).toBe('✎ own settings');
    // The claim stays chosen: the verdict still checks exactly-once.
    expect((screen.getByLabelText('Exactly-once') as HTMLInputElement).checked).toBe(true);
  });

  it('a component opens its fault menu; choosing an item adds a fault at the current time', async () => {
    const lab = await mount();
    // The preset's question waits for its answer and holds the cursor at the start: shown first.
    fireEvent.click(screen.getAllByTestId(testIds.outcomeShow)[0]!);
    act(() => lab.actions.seek(1234));
    const box = screen
      .getAllByTestId(testIds.component)
      .find((el) => el.getAttribute('data-component') === 'consumer-0')!;
    fireEvent.click(within(box).getAllByRole('button')[0]!);
    const menu = screen.getByTestId(testIds.faultMenu);
    fireEvent.click(within(menu).getByText('Crash after processing, before the commit'));
    await act(() => lab.actions.settled());
    const faults = lab.app.getState().scenario.faults!;
    expect(faults[faults.length - 1]).toMatchObject({
      kind: 'crash',
      point: 'before-commit',
      at: 1234,
    });
    expect(screen.queryByTestId(testIds.faultMenu)).toBeNull();
    // Opened again, a press outside closes it without adding anything.
    fireEvent.click(within(box).getAllByRole('button')[0]!);
    expect(screen.getByTestId(testIds.faultMenu)).toBeTruthy();
    fireEvent.pointerDown(document.body);
    expect(screen.queryByTestId(testIds.faultMenu)).toBeNull();
    expect(lab.app.getState().scenario.faults).toHaveLength(faults.length);
  });

  it('keyboard: space plays and pauses, Shift+arrows step, Ctrl+Z undoes, Ctrl+Shift+Z redoes', async () => {
    const lab = await mount();
    // The preset's question is unanswered: Space is refused as Play is, and the status line says why.
    fireEvent.keyDown(window, { key: ' ' });
    expect(lab.app.getState().playing).toBe(false);
    expect(screen.getByTestId(testIds.play).getAttribute('aria-disabled')).toBe('true');
    expect(lab.app.getState().notice).toBe(REVEAL_WAITS);
    fireEvent.click(screen.getAllByTestId(testIds.outcomeShow)[0]!);
    expect(screen.getByTestId(testIds.play).getAttribute('aria-disabled')).toBeNull();
    fireEvent.keyDown(window, { key: ' ' });
    expect(lab.app.getState().playing).toBe(true);
    fireEvent.keyDown(window, { key: ' ' });
    expect(lab.app.getState().playing).toBe(false);
    const at = lab.cursor.getState().idx;
    fireEvent.keyDown(window, { key: 'ArrowRight', shiftKey: true });
    fireEvent.keyDown(window, { key: 'ArrowRight', shiftKey: true });
    expect(lab.cursor.getState().idx).toBe(at + 2);
    fireEvent.keyDown(window, { key: 'ArrowLeft', shiftKey: true });
    expect(lab.cursor.getState().idx).toBe(at + 1);
    act(() => lab.actions.setSeed(9));
    fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    expect(lab.app.getState().scenario.seed).toBe(1);
    fireEvent.keyDown(window, { key: 'Z', ctrlKey: true, shiftKey: true });
    expect(lab.app.getState().scenario.seed).toBe(9);
    await act(() => lab.actions.settled());
  });

  it('the tagline speaks of the family on screen: a Kafka pipeline, else a batch job', async () => {
    await mount();
    const line = () => screen.getByTestId(testIds.tagline);
    expect(line().dataset.family).toBe('stream');
    expect(line().textContent).toContain('Break a Kafka pipeline on purpose');
    cleanup();
    await mount('clear-rerun-window');
    expect(line().dataset.family).toBe('batch');
    expect(line().textContent).toContain('Break a scheduled batch job on purpose');
    expect(line().textContent).not.toContain('Kafka');
  });

  it('the font-size control scales the page', async () => {
    await mount();
    const app = screen.getByTestId(testIds.app);
    const before = app.style.getPropertyValue('--scale');
    fireEvent.click(screen.getByTestId(testIds.fontLarger));
    expect(Number(app.style.getPropertyValue('--scale'))).toBeGreaterThan(Number(before));
  });
});
