import { describe, expect, it } from 'vitest';
import type { FaultSpec } from '../../engine';
import { formatMs } from '../run/format';
import { addedFaultWords } from './addedFaultWords';

describe('addedFaultWords', () => {
  it('names the fault as its timeline marker does: its number, what it does, where, when armed', () => {
    // at-most-once's minimal counterexample (`sim at-most-once --explore`), added after its two
    // faults: the third.
    const resend = { kind: 'app-resend', at: 0, event: 'p-1' } as FaultSpec;
    expect(addedFaultWords([resend], 2, formatMs)).toBe(
      'Added fault 3: the application sending p-1 again — armed from 0 ms',
    );
  });

  it('a pair: both, numbered in order; a fault with an id by its id; the message it picks', () => {
    const crash = {
      kind: 'crash',
      at: 400,
      target: 'consumer-0',
      point: 'before-commit',
      nth: 1,
      afterRecords: 1,
      restartAfterMs: 1000,
      id: 'consumer crash',
    } as FaultSpec;
    const ack = {
      kind: 'drop-response',
      at: 1200,
      link: 'produce',
      match: { nth: 1, event: 'p-4' },
    } as FaultSpec;
    expect(addedFaultWords([crash, ack], 0, formatMs)).toBe(
      'Added fault "consumer crash": a crash of consumer-0 before its offset commit — armed from 400 ms; and fault 2: a lost acknowledgement — the message carrying p-4 — armed from 1.200 s',
    );
  });
});
