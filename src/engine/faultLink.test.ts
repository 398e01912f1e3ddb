import { describe, expect, it } from 'vitest';
import { faultActsOn, MESSAGE_LINK, messageFaultKinds, messageMatchCount } from './faultLink';
import { events, runScenario } from './testing';
import { K, MESSAGE_TYPES } from './trace';

// Ten events 100 ms apart, idempotent producer, a consumer committing after each write, a table
// sink: produce, fetch, commit and sink messages and their responses, all in one small run.
const input = {
  workload: { events: events(10, (i) => (i - 1) * 100) },
  processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
  sink: { type: 'table' },
} as const;

describe('the fault-link rule', () => {
  it('a drop acts on the requests or the responses of its own link, never on replication', () => {
    for (const type of MESSAGE_TYPES) {
      const { link, request } = MESSAGE_LINK[type];
      const acting = messageFaultKinds(type);
      if (type === 'replicate') expect(acting).toEqual([]);
      else expect(acting[0]).toBe(request ? 'drop-request' : 'drop-response');
      for (const kind of ['drop-request', 'drop-response', 'delay-response'])
        expect(faultActsOn(kind, link, type)).toBe((acting as readonly string[]).includes(kind));
    }
  });

  it.each([
    ['armed when it is sent, for its event', true],
    ['armed from the start, for its partition', false],
  ])(
    'the nth it counts hits exactly the chosen message: %s',
    (_, atSend) => {
      const run = runScenario(input);
      const t = run.trace;
      const msgs: number[] = [];
      for (let i = 0; i < t.length; i++)
        if (t.kind[i] === K.msg || t.kind[i] === K['msg-lost']) msgs.push(i);
      const ids = run.events.identity;
      // Every 7th non-replication message (bounded: each costs a re-run): the fault it becomes,
      // appended to the scenario, fires on that very message, so the re-run is the same up to it
      // and then writes the 'fault' entry and the message as lost, in its place.
      const chosen = msgs
        .filter((i) => MESSAGE_TYPES[t.aux[i]!] !== 'replicate')
        .filter((_, k) => k % 7 === 0);
      expect(chosen.length).toBeGreaterThan(5);
      for (const entry of chosen) {
        const type = MESSAGE_TYPES[t.aux[entry]!]!;
        const partition = t.partition[entry]!;
        const single = t.event[entry]! >= 0 && t.count[entry]! <= 1;
        const identity = single && atSend ? ids[t.event[entry]!]! : -1;
        const at = atSend ? t.time[entry]! : 0;
        const match0 = { partition, identity };
        const nth = messageMatchCount(t, msgs, entry, match0, (e) => ids[e]!, at);
        const match = {
          nth,
          ...(partition >= 0 ? { partition } : {}),
          ...(identity >= 0 ? { event: run.events.identityId(identity) } : {}),
        };
        const kind = messageFaultKinds(type)[0]!;
        const after = runScenario({
          ...input,
          faults: [{ kind, link: MESSAGE_LINK[type].link, at, match }],
        }).trace;
        expect([after.kindOf(entry), after.kindOf(entry + 1), after.aux[entry + 1]]).toEqual([
          'fault',
          'msg-lost',
          t.aux[entry],
        ]);
      }
    },
    60_000,
  );
});
