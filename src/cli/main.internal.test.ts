/** Exit 1: an internal error (a bug in the engine) is reported, not thrown. */
import { describe, expect, it, vi } from 'vitest';
import type * as Engine from '../engine';
// The parts and presets the executable imports per run, all imported (main is synchronous).
import './cliTesting';
import { main } from './main';

vi.mock('../engine', async (importOriginal) => ({
  ...(await importOriginal<typeof Engine>()),
  simulate: () => {
    throw new Error('invariant broken: offset went backwards');
  },
}));

describe('exit 1: internal error', () => {
  it('prints the error on stderr and exits 1', () => {
    const err: string[] = [];
    const code = main(
      ['public/scenarios/lost-ack-duplicate.json', '--format', 'json'],
      () => undefined,
      (s) => err.push(s),
    );
    expect(code).toBe(1);
    expect(err.join('\n')).toMatch(
      /^internal error: Error: invariant broken: offset went backwards/,
    );
  });
});
