import { describe, expect, it } from 'vitest';
import { prefsState } from './workspace';

describe('saved preferences', () => {
  it('are applied when valid and ignored otherwise', () => {
    expect(prefsState({ speed: 0.1, skipIdle: false, fontStep: 3, tab: 'knobs' })).toEqual({
      speed: 0.1,
      skipIdle: false,
      fontStep: 3,
      tab: 'knobs',
    });
    expect(prefsState({ speed: 1e6, skipIdle: 'yes', fontStep: 99, tab: '<script>' })).toEqual({});
  });
});
