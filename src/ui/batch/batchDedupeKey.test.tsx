/**
 * A batch job's dedupe key from the page (issue 26 §2: every dedupe mechanism offers the key):
 * the event id, or a tuple of content columns, as one undoable edit of `batch.dedupeKey`.
 */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getKnob } from '../../scenarios';
import { renderBatchRun } from './batchTesting';

// Small batch jobs run inline; 10 s per test on a loaded machine (each takes well under 1 s).
vi.setConfig({ testTimeout: 10_000 });

describe('the dedupe key of a batch job', () => {
  afterEach(cleanup);

  it('content-key-false-merge/event-id: a content tuple (time, amount) merges p2 into p1', async () => {
    const lab = renderBatchRun();
    act(() => lab.actions.loadPreset('content-key-false-merge/event-id'));
    await act(() => lab.actions.settled());
    // The field is a chunk of its own (./BatchRun.tsx): in once its import resolves.
    await screen.findByTestId('batch-dedupe-key');
    const select = () => screen.getByTestId('batch-dedupe-key').querySelector('select')!;
    expect(select().value).toBe('event-id');
    fireEvent.change(select(), { target: { value: 'content-tuple' } });
    await act(() => lab.actions.settled());
    expect(getKnob(lab.app.getState().scenario, 'batch.dedupeKey')).toEqual(['time', 'amount']);
    expect(lab.app.getState().notice).toBe('Set dedupe key to (time, amount)');
    // p1 and p2 are both (09:15, 5): SET dedupe:{key} NX finds p1's claim and p2 is skipped
    // (https://redis.io/docs/latest/commands/set/); p3 (09:20, 5) and p4 (09:30, 8) keep their
    // own keys — 3 rows, p2 lost to a false merge. (An edit shows the outcome at once; no
    // question is asked without the story panel.)
    expect(screen.getByTestId('batch-summary').textContent).toMatch(
      /^3 rows · 0 duplicates · 1 lost/,
    );
    fireEvent.change(select(), { target: { value: 'event-id' } });
    await act(() => lab.actions.settled());
    expect(screen.getByTestId('batch-summary').textContent).toMatch(
      /^4 rows · 0 duplicates · 0 lost/,
    );
  });
});
