/**
 * "What this sets" in jsdom: a preset that ships with knobs outside its guarantee's bundle is
 * "custom" without claiming that something was changed by hand; a change by hand says so.
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

  it('a preset as shipped is not "changed since"; a change by hand is', async () => {
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
    expect(panel()).toContain('✎ custom: this preset, as shipped, sets some of them otherwise');
    expect(panel()).not.toContain('changed since');
    expect(panel()).toContain('the preset sets false');
    // Another seed changes no knob: still nothing changed here.
    act(() => lab.actions.setSeed(7));
    expect(panel()).toContain('this preset, as shipped, sets some of them otherwise');
    // A bundle knob changed by hand is.
    act(() => lab.actions.setKnob('producer.acks', '1'));
    expect(panel()).toContain('✎ custom: some were changed since');
    expect(panel()).toContain('now 1');
    expect(panel()).toContain('the preset sets false');
    await act(() => lab.actions.settled());
  });
});
