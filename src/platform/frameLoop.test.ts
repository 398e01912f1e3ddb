import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFrameLoop } from './frameLoop';

/** A page with one pending animation frame, fired by hand at a given timestamp. */
function fakePage() {
  const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  let pending: ((now: number) => void) | null = null;
  vi.stubGlobal('document', doc);
  vi.stubGlobal('requestAnimationFrame', (cb: (now: number) => void) => {
    pending = cb;
    return 1;
  });
  vi.stubGlobal('cancelAnimationFrame', () => {
    pending = null;
  });
  return {
    frame(now: number) {
      const cb = pending;
      pending = null;
      cb?.(now);
    },
    setVisible(visible: boolean) {
      doc.visibilityState = visible ? 'visible' : 'hidden';
      doc.dispatchEvent(new Event('visibilitychange'));
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('frame loop', () => {
  it('gives each frame the real ms since the previous one, 0 on the first', () => {
    const page = fakePage();
    const dts: number[] = [];
    createFrameLoop((dt) => dts.push(dt)).start();
    page.frame(1000);
    page.frame(1016);
    page.frame(1050);
    expect(dts).toEqual([0, 16, 34]);
  });

  it('does not count the time the page was hidden: the first frame after it shows again is 0', () => {
    // A background tab draws no frames; before, its first frame on return carried the whole
    // minute away (and playback jumped, or the 100 ms clamp hid it).
    const page = fakePage();
    const dts: number[] = [];
    createFrameLoop((dt) => dts.push(dt)).start();
    page.frame(1000);
    page.frame(1016);
    page.setVisible(false);
    page.setVisible(true);
    page.frame(61_016);
    page.frame(61_032);
    expect(dts).toEqual([0, 16, 0, 16]);
  });
});
