/**
 * The branded ids are distinct types: an event id, an identity id or an actor id passed where an
 * entry id (a cause) is expected does not compile. `node scripts/typecheck.mjs` checks this file
 * (tsconfig.json includes the tests): each `@ts-expect-error` line must be an error, so the file
 * fails the typecheck the day a brand is lost. The run-time half checks that the ids cost
 * nothing: they are the plain numbers the trace's columns hold.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  NO_ENTRY,
  NO_EVENT,
  toEntryId,
  toEventId,
  toIdentityId,
  type ActorId,
  type EntryId,
  type EventId,
  type IdentityId,
} from './ids';
import { Trace } from './trace';
import { writeCrash, writeFault } from './traceWriters';

describe('branded ids', () => {
  it('an EventId, IdentityId or ActorId is not an EntryId, nor the other way round', () => {
    expectTypeOf<EventId>().not.toMatchTypeOf<EntryId>();
    expectTypeOf<IdentityId>().not.toMatchTypeOf<EntryId>();
    expectTypeOf<ActorId>().not.toMatchTypeOf<EntryId>();
    expectTypeOf<EntryId>().not.toMatchTypeOf<EventId>();
    expectTypeOf<EventId>().not.toMatchTypeOf<IdentityId>();
    // Each is still a number wherever a plain number is read (an index, a comparison).
    expectTypeOf<EntryId>().toMatchTypeOf<number>();
    expectTypeOf<EventId>().toMatchTypeOf<number>();
  });

  it('a writer takes its cause as an EntryId: an event id there is a type error', () => {
    const t = new Trace(16);
    const actor = 0 as ActorId;
    const event = toEventId(3);
    const fault = writeFault(t, 0, actor, NO_ENTRY, event, 0);
    // The fault entry is a cause; the event it carries is not.
    const crash = writeCrash(t, 1, actor, fault, 0);
    // @ts-expect-error an EventId is not an EntryId
    writeCrash(t, 2, actor, event, 0);
    // @ts-expect-error a plain number is not an EntryId either: it must come from the trace
    writeCrash(t, 2, actor, 5, 0);
    // @ts-expect-error an EntryId is not an EventId
    writeFault(t, 3, actor, NO_ENTRY, crash, 0);
    expectTypeOf(crash).toEqualTypeOf<EntryId>();
    // Run time: plain numbers, so the columns hold exactly what was passed.
    expect([fault, crash]).toEqual([0, 1]);
    expect(t.cause[1]).toBe(fault);
    expect(t.event[0]).toBe(3);
  });

  it('the constructors and the "none" ids are the plain numbers', () => {
    expect([toEntryId(7), toEventId(8), toIdentityId(9), NO_ENTRY, NO_EVENT]).toEqual([
      7, 8, 9, -1, -1,
    ]);
  });
});
