/**
 * Causal chains: for each event lost or duplicated at the end of the pipeline, one plain sentence
 * built from the trace ("ack of e3 lost → the producer retried the same batch → with
 * enable.idempotence=false the broker appended it again"), with the trace entries it cites.
 * Events with the same story are grouped into one explanation.
 */
import type { Run } from '../simulate';
import type { Verdict } from '../checker';
import { KIND_CODE } from '../trace';
import { explainContext } from './context';
import type { Story } from './story';

/** One explanation: a sentence shared by one or more events. */
export interface Explanation {
  fate: 'lost' | 'duplicated';
  /** Business ids it applies to (sorted as in the workload). */
  events: string[];
  /** The sentence, about the first event (`{id}` already filled in). */
  sentence: string;
  /** The same sentence with `{id}` where the business id goes (one sentence per event). */
  template: string;
  /**
   * Which output it is about: the end of the pipeline, the processor's side effects, or a
   * downstream reader's own table (with `by`).
   */
  point: string;
  /**
   * Set when the copies are not the pipeline's doing: the downstream reader whose own replay made
   * them (it read again from its last committed offset after a crash before its commit). Such an
   * explanation leaves the verdict as it is: the reader's point counts each record read once.
   */
  by?: string;
  /** Trace entries the sentence rests on (for the first event). */
  entries: number[];
}

const MAX_EXPLAINED = 2000;

/** Build the explanations of a run's anomalies at the primary point. */
export function explain(run: Run, v: Verdict): Explanation[] {
  const n = run.events.identities;
  const anomalies: number[] = [];
  for (let j = 0; j < n && anomalies.length < MAX_EXPLAINED; j++)
    if (v.fate[j] !== 1) anomalies.push(j);
  // Side effects of the processor, when they are not the end of the pipeline themselves.
  const effects = v.sideEffects ? v.points.find((p) => p.name === 'effects')! : null;
  const effectDups: number[] = [];
  if (effects)
    for (let j = 0; j < n && effectDups.length < MAX_EXPLAINED; j++)
      if (effects.rows[j]! >= 2) effectDups.push(j);
  const rereads = readerRereads(run, v);
  if (anomalies.length === 0 && effectDups.length === 0 && rereads.length === 0) return [];
  const ctx = explainContext(
    run,
    v,
    new Set([...anomalies, ...effectDups, ...rereads.flatMap((r) => r.identities)]),
  );
  const groups = new Map<string, Explanation>();
  const add = (
    j: number,
    fate: 'lost' | 'duplicated',
    point: string,
    story: Story,
    by?: string,
  ) => {
    const id = run.events.identityId(j);
    const key = `${point}|${fate}|${story.template}`;
    const g = groups.get(key);
    if (g) g.events.push(id);
    else
      groups.set(key, {
        fate,
        events: [id],
        sentence: story.template.replaceAll('{id}', id),
        template: story.template,
        point,
        entries: story.entries,
        ...(by === undefined ? {} : { by }),
      });
  };
  for (const j of anomalies) {
    const fate = v.fate[j] === 0 ? 'lost' : 'duplicated';
    add(
      j,
      fate,
      v.primary,
      fate === 'lost' ? ctx.lost.whyLost(j) : ctx.duplicated.whyDuplicated(j),
    );
  }
  for (const j of effectDups) add(j, 'duplicated', 'effects', ctx.duplicated.whyEffectRepeated(j));
  for (const r of rereads)
    for (const j of r.identities)
      add(
        j,
        'duplicated',
        `reader:${r.name}`,
        ctx.duplicated.readerReplay(j, r.actor, r.index),
        r.name,
      );
  return [...groups.values()];
}

/**
 * The downstream readers that copied records again (`row-insert` with count 0, see
 * processors/outputs.ts ReaderOutput) and the identities they did it for (the first 2,000).
 */
function readerRereads(
  run: Run,
  v: Verdict,
): { name: string; index: number; actor: number; identities: number[] }[] {
  const out: { name: string; index: number; actor: number; identities: number[] }[] = [];
  const t = run.trace;
  run.scenario.readers.forEach((r, index) => {
    if (!v.points.find((p) => p.name === `reader:${r.name}`)?.rereads) return;
    const actor = t.actors.indexOf(`reader-${index}`);
    const seen = new Set<number>();
    const ROW = KIND_CODE['row-insert'];
    for (let i = 0; i < t.length && seen.size < MAX_EXPLAINED; i++)
      if (t.kind[i] === ROW && t.actor[i] === actor && t.count[i] === 0)
        seen.add(run.events.identity[t.event[i]!]!);
    out.push({ name: r.name, index, actor, identities: [...seen].sort((a, b) => a - b) });
  });
  return out;
}
