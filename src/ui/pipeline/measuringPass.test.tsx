/**
 * The embed's measuring pass (src/ui/embed/ReserveHeight.tsx) lays out what takes room and skips
 * what only a reader sees: no token layer (it measured every component's box at each sample) and
 * no list kept scrolled to its end (a scroll lays the player out). The live player keeps both.
 */
import { act, cleanup, render } from '@testing-library/react';
import { useRef, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ArtifactClient } from '../../platform/runClient';
import { LabProvider } from '../../store/LabContext';
import { createNotices } from '../io/notices';
import { PageProvider } from '../io/PageContext';
import { Measuring } from '../hooks/useMeasuring';
import { presetLab } from '../testLab';
import { Pipeline } from './Pipeline';
import { useFollowEnd } from './useFollow';

vi.setConfig({ testTimeout: 10_000 });

const STAGES = 5;

function within(copy: boolean, children: ReactNode) {
  return <Measuring.Provider value={copy}>{children}</Measuring.Provider>;
}

describe('the measuring pass', () => {
  afterEach(cleanup);

  it.each([
    [false, 1],
    [true, 0],
  ])('measuring pass %s: %i token layer over the pipeline', async (copy, layers) => {
    const lab = presetLab('lost-ack-retry/acks-1');
    const artifacts: ArtifactClient = { get: vi.fn(), dispose: () => {} };
    const { container } = render(
      <LabProvider lab={lab}>
        <PageProvider page={{ notices: createNotices(), artifacts, shareLink: null }}>
          {within(copy, <Pipeline />)}
        </PageProvider>
      </LabProvider>,
    );
    await act(() => lab.actions.settled());
    // The stages are laid out either way: the copy is measured for them.
    expect(container.querySelectorAll('.pipeline > .stage').length).toBe(STAGES);
    expect(container.querySelectorAll('.token-canvas').length).toBe(layers);
    expect(container.querySelectorAll('[aria-label="Messages in flight"]').length).toBe(layers);
  });

  it.each([
    [false, 2],
    [true, 0],
  ])('measuring pass %s: a growing list scrolled to its end %i times', (copy, calls) => {
    const scrollToEnd = vi.fn();
    function List({ size }: { size: number }) {
      const ref = useRef<HTMLDivElement>(null);
      useFollowEnd(ref, size, scrollToEnd);
      return <div ref={ref} />;
    }
    const { rerender } = render(within(copy, <List size={3} />));
    rerender(within(copy, <List size={4} />));
    expect(scrollToEnd).toHaveBeenCalledTimes(calls);
  });
});
