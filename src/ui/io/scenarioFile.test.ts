// @vitest-environment jsdom
/**
 * An embed's scenario file (`<delivery-lab-embed src>`): asked of the host page and read from
 * its answer only, for that file; no answer in time says so.
 */
import { describe, expect, it } from 'vitest';
import { requestScenarioFile, SCENARIO_FILE_MESSAGE } from './scenarioFile';

describe('requestScenarioFile', () => {
  /** A host window that records what it is sent. */
  function host() {
    const sent: unknown[] = [];
    return { sent, win: { postMessage: (m: unknown) => sent.push(m) } as unknown as Window };
  }
  const answer = (source: unknown, data: unknown) =>
    window.dispatchEvent(new MessageEvent('message', { source: source as Window, data }));

  it('asks the host for the file and reads its answer for that file only, from it only', async () => {
    const h = host();
    const got = requestScenarioFile('p.json', h.win, 5_000);
    expect(h.sent).toEqual([{ type: SCENARIO_FILE_MESSAGE, file: 'p.json' }]);
    answer(window, { type: SCENARIO_FILE_MESSAGE, file: 'p.json', text: 'from another window' });
    answer(h.win, { type: SCENARIO_FILE_MESSAGE, file: 'other.json', text: 'another file' });
    answer(h.win, { type: SCENARIO_FILE_MESSAGE, file: 'p.json', text: '{}' });
    expect(await got).toEqual({ text: '{}' });
  });

  it('no answer in time (a hand-written iframe, no loader): an error that says so', async () => {
    expect(await requestScenarioFile('p.json', host().win, 10)).toEqual({
      error: expect.stringMatching(/^the page did not send it in 0.01 s: .*embed\.js/) as string,
    });
  });
});
