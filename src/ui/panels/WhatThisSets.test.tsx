/**
 * "What this sets" in jsdom: a library preset that ships with knobs off its claimed guarantee's
 * recipe says so without claiming that something was changed by hand; a change by hand says so.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createLab } from '../../store/labStore';
import { LabProvider } from '../../store/LabContext';
import { createRunClient } from '../../platform/runClient';
import { testIds } from '../testIds';
import { WhatThisSets } from './WhatThisSets';

/** Everything runs inline (jsdom and Node have no Worker), as the page runs small scenarios. */
const inline = createRunClient({ createWorker: null });

describe('WhatThisSets', () => {
  afterEach(cleanup);

  it('a library preset as shipped is not "changed since"; a change by hand is', async () => {
    const lab = createLab({ runner: inline });
    render(
      <LabProvider lab={lab}>
        <WhatThisSets />
      </LabProvider>,
    );
    // lost-ack-retry claims exactly-once and ships with enable.idempotence=false.
    act(() => lab.actions.loadPreset('lost-ack-retry/idempotence-off'));
    await act(() => lab.actions.settled());
    const panel = () => screen.getByTestId(testIds.whatThisSets).textContent;
    expect(panel()).toContain('The exactly-once recipe sets');
    expect(panel()).toContain(
      '✎ own settings: the library preset, as shipped, sets 4 of them otherwise',
    );
    expect(panel()).not.toContain('changed since');
    expect(panel()).toContain('the library preset sets false');
    expect(panel()).toContain('the library preset leaves it unset');
    // Another seed changes no knob: still nothing changed here.
    act(() => lab.actions.setSeed(7));
    expect(panel()).toContain('the library preset, as shipped, sets 4 of them otherwise');
    // A recipe knob changed by hand is.
    act(() => lab.actions.setKnob('producer.acks', '1'));
    expect(panel()).toContain(
      '✎ own settings: some were changed since the library preset was opened',
    );
    expect(panel()).toContain('now 1');
    expect(panel()).toContain('the library preset sets false');
    // Choosing the claimed guarantee again applies its recipe: every knob as it sets.
    act(() => lab.actions.setGuarantee('exactly-once'));
    expect(panel()).not.toContain('✎');
    await act(() => lab.actions.settled());
  });

  it('an unset knob whose default is the recipe’s value follows it, as the badge says', async () => {
    const lab = createLab({ runner: inline });
    render(
      <LabProvider lab={lab}>
        <WhatThisSets />
      </LabProvider>,
    );
    // The Flink job leaves checkpointing.mode unset: EXACTLY_ONCE, the recipe's value.
    act(() => lab.actions.loadPreset('flink-checkpoint-replay/upsert'));
    await act(() => lab.actions.settled());
    const panel = screen.getByTestId(testIds.whatThisSets);
    expect(panel.textContent).not.toContain('✎');
    expect(panel.querySelectorAll('[data-same="false"]')).toHaveLength(0);
  });
});
