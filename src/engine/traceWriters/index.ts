/**
 * Typed trace writers, one per entry kind, by the component family that writes them. The
 * engine appends to its trace only through these (the raw `Trace.add` is the trace module's
 * own), so a caller cannot put a position in the count column. Each is a plain function of
 * positional, named parameters: no object per entry on the hot paths.
 */
export * from './broker';
export * from './processing';
export * from './producer';
export * from './restore';
export * from './runtime';
export * from './sinks';
