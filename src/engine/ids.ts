/**
 * Branded ids: plain numbers at run time (they index the trace's columns, the workload's arrays
 * and the actor table, so they cost nothing), distinct types at compile time, so an event index
 * passed where an entry id (a cause) is expected is a type error. Ids are made where their number
 * is created: the trace's append and its column reads (entries), the workload (events and their
 * business identities), an actor's registration (actors) — with the functions below, or `as` on
 * a hot path.
 */

/** A trace entry's index (its id); -1 ({@link NO_ENTRY}): none. */
export type EntryId = number & { readonly __brand: 'EntryId' };
/** A workload event's index (one application send() of one record); -1 ({@link NO_EVENT}): none. */
export type EventId = number & { readonly __brand: 'EventId' };
/** A business identity's index: the record the events that re-send it share (a retry, a re-send, a source duplicate). */
export type IdentityId = number & { readonly __brand: 'IdentityId' };
/** An actor's index in the trace's actor table. */
export type ActorId = number & { readonly __brand: 'ActorId' };

/** No entry: the cause of an entry that nothing in the trace caused. */
export const NO_ENTRY = -1 as EntryId;
/** No event: an entry that carries no workload event. */
export const NO_EVENT = -1 as EventId;

/** The entry id held in a trace column (`cause`, or an index read from the trace). */
export const toEntryId = (n: number): EntryId => n as EntryId;
/** The event id held in a trace column or a workload array. */
export const toEventId = (n: number): EventId => n as EventId;
/** The identity id held in the workload's `identity` column. */
export const toIdentityId = (n: number): IdentityId => n as IdentityId;
