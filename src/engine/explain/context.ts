/**
 * The context the stories of one run share: the run and its verdict, the trace and records
 * indexes, the actors whose entries are the primary point, and every family of stories.
 */
import type { Run } from '../simulate';
import type { Verdict } from '../checker';
import { TraceIndex } from './traceIndex';
import { RecordIndex } from './records';
import { FAMILIES, type Families } from './families';
import type { StoryFamily } from './story';

export type ExplainContext = ContextBase & Families;

class ContextBase {
  readonly index: TraceIndex;
  readonly records: RecordIndex;
  /** The actors whose entries are the primary point's (the sink, the service, a reader). */
  readonly primaryActors = new Set<number>();

  constructor(
    readonly run: Run,
    readonly v: Verdict,
    identities: ReadonlySet<number>,
  ) {
    this.index = new TraceIndex(run.trace, run.events.identity, identities);
    this.records = new RecordIndex(run);
    const p = v.primary;
    const actors = run.trace.actors;
    if (p === 'sink' || p === 'clean') this.primaryActors.add(actors.indexOf('sink'));
    else if (p === 'effects') this.primaryActors.add(actors.indexOf('service'));
    else if (p.startsWith('reader:'))
      this.primaryActors.add(
        actors.indexOf(`reader-${run.scenario.readers.findIndex((r) => `reader:${r.name}` === p)}`),
      );
  }
}

/** The context for explaining the events of `identities` in `run`, with every family in it. */
export function explainContext(
  run: Run,
  v: Verdict,
  identities: ReadonlySet<number>,
): ExplainContext {
  const ctx = new ContextBase(run, v, identities) as ExplainContext;
  const slots = ctx as unknown as Record<string, StoryFamily>;
  for (const name of Object.keys(FAMILIES) as (keyof Families)[])
    slots[name] = new FAMILIES[name](ctx);
  return ctx;
}
