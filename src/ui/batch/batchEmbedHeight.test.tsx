/**
 * The batch embed's height (issue 31, "Stable height"): reserved for the whole schedule by the
 * stream player's rule (src/ui/embed/ReserveHeight.tsx); a hidden copy lays the schedule out
 * at a given number of attempts (`measureAt`); `height=` fixes it and measures nothing. The
 * heights themselves need a layout: e2e/docs-embed.spec.ts.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createArtifactClient } from '../../platform/runClient';
import { LabProvider } from '../../store/LabContext';
import { createNotices } from '../io/notices';
import { testIds } from '../testIds';
import { presetLab } from '../testLab';
import { EmbedApp } from '../embed/EmbedApp';
import { DEFAULT_EMBED, type EmbedOptions } from '../embed/embedOptions';
import { BatchRun } from './BatchRun';

// The first mount waits for the lazy batch chunk: 10 s seen under load; 30 s per test.
vi.setConfig({ testTimeout: 30_000 });

async function mountEmbed(options: Partial<EmbedOptions>) {
  const lab = presetLab('airflow-retry-append');
  render(
    <EmbedApp
      lab={lab}
      page={{ notices: createNotices(), artifacts: createArtifactClient(), shareLink: null }}
      options={{ ...DEFAULT_EMBED, ...options }}
      presetRef="airflow-retry-append/append"
    />,
  );
  await act(() => lab.actions.settled());
  await screen.findByTestId('batch-run', {}, { timeout: 10_000 });
  return screen.getByTestId(testIds.embedPlayer);
}

const attempts = () => screen.queryAllByTestId('batch-attempt');
const summary = () => screen.queryByTestId('batch-summary');

describe('the batch embed’s height (jsdom)', () => {
  afterEach(cleanup);

  it('is measured, then held as the player’s height, and the schedule autoplays', async () => {
    const player = await mountEmbed({ autoplay: true });
    // The hidden copy is measured within a few tasks; then the height is set on the player.
    await vi.waitFor(() => expect(player.dataset.measuring).toBeUndefined(), { timeout: 10_000 });
    expect(player.dataset.height).toBe('reserved');
    expect(player.style.height).toMatch(/^\d+px$/);
    expect(player.style.overflowY).toBe('auto');
    // The measuring copy is in a closed shadow root: one player, one schedule in the document.
    expect(screen.getAllByTestId('batch-run')).toHaveLength(1);
    expect(await screen.findAllByTestId('batch-attempt')).not.toHaveLength(0);
  });

  it('height= fixes it: nothing measured', async () => {
    const player = await mountEmbed({ height: 500 });
    expect(player.dataset.height).toBe('fixed');
    expect(player.dataset.measuring).toBeUndefined();
    expect(player.style.height).toBe('500px');
  });

  it('the measuring copy stands at `measureAt` attempts: the setup before the end, the table at it', async () => {
    // airflow-retry-append: try 1 fails, try 2 succeeds (retries=1) — two attempts.
    const lab = presetLab('airflow-retry-append');
    const embed = { locked: true, autoplay: false, why: true };
    const { rerender } = render(
      <LabProvider lab={lab}>
        <BatchRun embed={{ ...embed, measureAt: 1 }} />
      </LabProvider>,
    );
    await act(() => lab.actions.settled());
    expect(attempts()).toHaveLength(1);
    expect(screen.queryByTestId('batch-setup')).not.toBeNull();
    expect(summary()).toBeNull();
    rerender(
      <LabProvider lab={lab}>
        <BatchRun embed={{ ...embed, measureAt: 2 }} />
      </LabProvider>,
    );
    expect(attempts()).toHaveLength(2);
    expect(screen.queryByTestId('batch-setup')).toBeNull();
    expect(summary()?.textContent).toContain('20 rows · 10 duplicates · 0 lost');
  });
});
