/**
 * A batch job whose attempts take no click (an embed's `lock=1`, the presenter view's batch step):
 * each attempt is its words, at the page's colour — a disabled button greyed it to 55 % opacity,
 * "try 1 of 2024-03-10 …: crashed (after-write)" at 3.9:1 on the projector, the line the room
 * watches. Unlocked, each is a button that opens the attempt's faults.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createArtifactClient } from '../../platform/runClient';
import { createNotices } from '../io/notices';
import { presetLab } from '../testLab';
import { EmbedApp } from '../embed/EmbedApp';
import { DEFAULT_EMBED, type EmbedOptions } from '../embed/embedOptions';

// The first test waits for the lazy batch chunk: seconds on a loaded machine.
vi.setConfig({ testTimeout: 30_000 });

async function mount(options: Partial<EmbedOptions>) {
  const lab = presetLab('airflow-retry-append');
  render(
    <EmbedApp
      lab={lab}
      page={{ notices: createNotices(), artifacts: createArtifactClient(), shareLink: null }}
      options={{ ...DEFAULT_EMBED, autoplay: true, ...options }}
      presetRef="airflow-retry-append/append"
    />,
  );
  await act(() => lab.actions.settled());
  await screen.findByTestId('batch-run', {}, { timeout: 10_000 });
  return await screen.findAllByTestId('batch-attempt', {}, { timeout: 5_000 });
}

describe('a batch job’s attempts', () => {
  afterEach(cleanup);

  it('locked: the words, no disabled button', async () => {
    const attempts = await mount({ lock: true });
    expect(attempts[0]!.textContent).toContain('try 1 of 2024-03-10');
    expect(attempts[0]!.textContent).toContain('crashed (after-write)');
    for (const a of attempts) expect(a.querySelector('button')).toBeNull();
  });

  it('unlocked: a button that opens its faults', async () => {
    const attempts = await mount({ lock: false });
    const button = attempts[0]!.querySelector('button');
    expect(button).not.toBeNull();
    expect(button!.disabled).toBe(false);
  });
});
