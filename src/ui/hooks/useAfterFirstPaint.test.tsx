import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAfterFirstPaint } from './useAfterFirstPaint';

/** Animation frames run by hand: `frame()` runs the callbacks asked for so far. */
let frames: FrameRequestCallback[] = [];
const frame = () => {
  const due = frames;
  frames = [];
  for (const f of due) f(0);
};

describe('useAfterFirstPaint', () => {
  beforeEach(() => {
    frames = [];
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((f) => frames.push(f));
    vi.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('is false through the first frame and true in a task after it', () => {
    const { result } = renderHook(() => useAfterFirstPaint(true));
    expect(result.current).toBe(false);
    // The frame that paints the first render (the verdict's): still false in it.
    act(frame);
    expect(result.current).toBe(false);
    // The task after it.
    act(() => vi.advanceTimersByTime(0));
    expect(result.current).toBe(true);
  });

  it('is true at once when not enabled (a bare <App/>: every panel in the first render)', () => {
    const { result } = renderHook(() => useAfterFirstPaint(false));
    expect(result.current).toBe(true);
    expect(frames).toHaveLength(0);
  });

  it('stays true when its component renders again, asking for no more frames', () => {
    const { result, rerender } = renderHook(() => useAfterFirstPaint(true));
    act(frame);
    act(() => vi.advanceTimersByTime(0));
    rerender();
    expect(result.current).toBe(true);
    expect(frames).toHaveLength(0);
  });
});
