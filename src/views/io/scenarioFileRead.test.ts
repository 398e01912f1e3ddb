/**
 * An embed's scenario file, validated as a share link's scenario: a bad file named with its
 * field, a file that could not be had refused (nothing plays).
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../engine';
import { findPreset } from '../../scenarios';
import { readScenarioFile } from './scenarioFileRead';

const scenario = findPreset('lost-ack-retry/acks-1')!.variant.scenario;

describe('readScenarioFile', () => {
  it('a valid file is the run to play, as written', () => {
    const r = readScenarioFile('p.json', { text: JSON.stringify(scenario) }, parseScenario);
    expect(r.ok && r.input).toEqual(scenario);
  });

  it('a bad field, bad JSON or no file: refused, the file named', () => {
    const bad = { ...scenario, producer: { ...scenario.producer, acks: '2' } };
    const r = readScenarioFile('p.json', { text: JSON.stringify(bad) }, parseScenario);
    expect(r.ok ? [] : r.issues.map((i) => i.path)).toEqual(['producer.acks']);
    const json = readScenarioFile('p.json', { text: '{"name": ' }, parseScenario);
    expect(json.ok ? '' : json.issues[0]!.message).toMatch(/^p\.json: not JSON: /);
    const gone = readScenarioFile(
      'p.json',
      { error: 'could not be fetched: HTTP 404' },
      parseScenario,
    );
    expect(gone).toEqual({
      ok: false,
      issues: [{ path: '', message: 'p.json: could not be fetched: HTTP 404' }],
    });
  });
});
