/**
 * Settled history: the fields of a run's object that the run only ever adds to and never reads
 * again while it runs — read only by the checker once the run has ended, as per-business-event
 * counts that add up. The fault atlas's rejoin test (src/engine/atlas/rejoin.ts) leaves them out
 * of the states it compares: a trial that differs from the scenario's own run only there ends
 * with its settled counts now plus what the own run adds to them from then on.
 *
 * A class that holds such fields names them with a method under this symbol (on its prototype,
 * so a fork's copy, which copies own fields, is unaffected). It must name a field only where it
 * can say why nothing reads it again — a wrong one makes the atlas wrong (the rejoin's tests
 * compare with trials run from scratch).
 */
export const settledFields: unique symbol = Symbol('settledFields');

/** An object that names its settled fields (see {@link settledFields}). */
export interface HasSettledFields {
  [settledFields](): readonly string[];
}
