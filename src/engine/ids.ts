/**
 * Branded ids: plain numbers at run time (they index the trace's columns and tables, so they
 * cost nothing), distinct types at compile time so an actor index cannot be passed where an
 * entry id or an event index is expected. Make one with `as` where the number is created
 * (the trace's append, an actor's registration, the workload's event index).
 */

/** A trace entry's index (its id); -1 ({@link NO_ENTRY}): none. */
export type EntryId = number & { readonly __brand: 'EntryId' };
/** A workload event's index (the business event a record carries). */
export type EventId = number & { readonly __brand: 'EventId' };
/** A producer identity's index (one producer session: its producer id and epoch). */
export type IdentityId = number & { readonly __brand: 'IdentityId' };
/** An actor's index in the trace's actor table. */
export type ActorId = number & { readonly __brand: 'ActorId' };

/** No entry: the cause of an entry that nothing in the trace caused. */
export const NO_ENTRY = -1 as EntryId;
/** No event: an entry that carries no workload event. */
export const NO_EVENT = -1 as EventId;
