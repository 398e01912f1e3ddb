/**
 * The embed's parts keep the room of their fullest state over the run from the first frame
 * (src/ui/hooks/useReserveRoom.ts): at the start of the run, each caption carries the longest
 * text it will show, and a consumer's "left its group" line is laid out hidden. The lab's page
 * lays out only what is there.
 */
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LabProvider } from '../store/LabContext';
import { processorsAt } from '../views/run/processorAt';
import { Counters } from './Counters';
import { unaskedSubject } from './embed/embedSubject';
import { ReserveRoom } from './hooks/useReserveRoom';
import { PredictionProvider } from './library/PredictionContext';
import { ProcessorCard } from './pipeline/stages/ProcessorCard';
import { presetLab } from './testLab';
import { testIds } from './testIds';

vi.setConfig({ testTimeout: 15_000 });
afterEach(cleanup);

async function countersAtStart(ref: string, reserve: boolean) {
  const lab = presetLab(ref);
  await lab.actions.settled();
  const { getByTestId } = render(
    <ReserveRoom.Provider value={reserve}>
      <LabProvider lab={lab}>
        <PredictionProvider subject={unaskedSubject(lab.app.getState().scenario)}>
          <Counters />
        </PredictionProvider>
      </LabProvider>
    </ReserveRoom.Provider>,
  );
  const caption = (id: string) => getByTestId(id).querySelector('.caption')!;
  return {
    sum: caption(testIds.counterSum),
    duplicates: caption(testIds.counterDuplicates),
    missing: caption(testIds.counterMissing),
  };
}

describe('ReserveRoom', () => {
  it("reserves each counter caption's longest text over the run at its start", async () => {
    // lost-ack-retry/acks-1: $550 in 10 events; at the start all of it is not yet in (40
    // characters), at the end "$30 double-counted" (18); mid-run "$30 double-counted · $… not
    // yet in" is at most 35.
    const c = await countersAtStart('lost-ack-retry/acks-1', true);
    expect(c.sum.textContent).toBe('nothing double-counted · $550 not yet in');
    expect(c.sum.getAttribute('data-reserve')).toBe('nothing double-counted · $550 not yet in');
    expect(c.duplicates.textContent).toBe('duplicate rows');
    expect(c.duplicates.getAttribute('data-reserve')).toBe('duplicate rows');
    // "not in the sink yet" (19) outlasts the end's "lost events" (11).
    expect(c.missing.getAttribute('data-reserve')).toBe('not in the sink yet');
  });

  it('reserves nothing on the lab page', async () => {
    const c = await countersAtStart('lost-ack-retry/acks-1', false);
    expect(c.sum.hasAttribute('data-reserve')).toBe(false);
    expect(c.missing.hasAttribute('data-reserve')).toBe(false);
  });

  it("reserves a consumer's 'uncommitted' line for the most records processed since a commit", async () => {
    // at-least-once/default: max.poll.records 5, offsets committed after each batch is
    // processed, so at most 5 are uncommitted at once — though consumer-0 processes 24 records
    // in all: 21 in the log (20 events, p-4 appended twice after its lost ack) and the 3 it
    // processes again after its crash mid-batch. The reserve was the 24.
    const lab = presetLab('at-least-once/default');
    await lab.actions.settled();
    const view = lab.app.getState().view!;
    const status = processorsAt(view, 0, 0).find((p) => p.name === 'consumer-0')!;
    expect(view.processors.find((p) => p.name === 'consumer-0')!.processes.length).toBe(24);
    const { getByTestId } = render(
      <ReserveRoom.Provider value={true}>
        <LabProvider lab={lab}>
          <ProcessorCard view={view} status={status} />
        </LabProvider>
      </ReserveRoom.Provider>,
    );
    expect(getByTestId(testIds.sinceCommit).getAttribute('data-reserve')).toBe(
      '5 processed since the last commit',
    );
  });

  it("keeps a consumer's 'left its group' line hidden before it leaves", async () => {
    // poll-timeout-slow-batch: consumer-0 leaves at 5 min 01.006 s (its poll timeout), removed
    // 45 s later (e2e/library.spec.ts reads the same line at 320 s on the page).
    const lab = presetLab('poll-timeout-slow-batch');
    await lab.actions.settled();
    const view = lab.app.getState().view!;
    const status = processorsAt(view, 0, 0).find((p) => p.name === 'consumer-0')!;
    const card = (reserve: boolean) =>
      render(
        <ReserveRoom.Provider value={reserve}>
          <LabProvider lab={lab}>
            <ProcessorCard view={view} status={status} />
          </LabProvider>
        </ReserveRoom.Provider>,
      ).container;
    const embed = card(true).querySelector('dd.reserved-room')!;
    expect(embed.textContent).toBe(
      'left at 5 min 01.006 s (poll timeout) · removed at 5 min 46.006 s unless it polls first',
    );
    expect(embed.getAttribute('aria-hidden')).toBe('true');
    expect(embed.hasAttribute('data-testid')).toBe(false);
    cleanup();
    expect(card(false).querySelector('dd.reserved-room')).toBeNull();
  });
});
