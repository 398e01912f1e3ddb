/**
 * Branded ids: plain numbers at run time (they index the trace's columns and tables, so they
 * cost nothing), distinct types at compile time so an actor index cannot be passed where an
 * entry id is expected. (Event and producer-identity indexes are still plain numbers: the
 * handlers pass them as `number` throughout.) Make one with `as` where the number is created
 * (the trace's append, an actor's registration).
 */

/** A trace entry's index (its id); -1 ({@link NO_ENTRY}): none. */
export type EntryId = number & { readonly __brand: 'EntryId' };
/** An actor's index in the trace's actor table. */
export type ActorId = number & { readonly __brand: 'ActorId' };

/** No entry: the cause of an entry that nothing in the trace caused. */
export const NO_ENTRY = -1 as EntryId;
