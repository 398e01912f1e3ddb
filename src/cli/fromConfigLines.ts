/**
 * The lines `delivery-lab from-config` prints for a stream's files (./fromConfig.ts) and a batch
 * job's (./fromConfigBatch.ts) alike: each key where the files set it, the keys by what became of
 * them, and the end-to-end guarantee against the claim (docs/cli.md, "Your configuration in").
 */
import type { ConfigImport, KeyReport } from '../scenarios/config/importConfig';

type Imported = Extract<ConfigImport, { ok: true }>;

/** A key at its file and line, and what it set or why not. */
function keyLine(k: KeyReport): string {
  const where = k.line > 0 ? `${k.file}:${k.line}` : k.file;
  // A sink statement's clause and the knob it sets: `ON CONFLICT (payment_id) DO NOTHING  →
  // sink.statement = on-conflict-do-nothing`.
  if (k.sql) return `  ${where}  ${k.key}  → ${k.path} = ${k.value}${k.why ? ` (${k.why})` : ''}`;
  const what =
    k.status === 'applied' ? `→ ${k.path}${k.why ? ` (${k.why})` : ''}` : `— ${k.why ?? ''}`;
  return `  ${where}  ${k.key}=${k.value}  ${what}`;
}

/**
 * The keys grouped by what became of them, each group under its title with its count; the
 * titles of the unmodelled and overridden ones as the kind of files has them.
 */
export function keyGroupLines(
  keys: readonly KeyReport[],
  titles: { ignored: string; overridden: string },
): string[] {
  const group = (s: KeyReport['status'][]) => keys.filter((k) => s.includes(k.status));
  return (
    [
      ['recognised', group(['applied'])],
      [titles.ignored, group(['ignored', 'unknown'])],
      [titles.overridden, group(['overridden'])],
      ['refused', group(['refused'])],
    ] as const
  ).flatMap(([title, list]) =>
    list.length > 0 ? [`${title} (${list.length}):\n${list.map(keyLine).join('\n')}`] : [],
  );
}

/**
 * The last line: the guarantee the run observed under the workload's fault, and whose claim it
 * breaks (the workload's, or the one `--claim` chose: the files claim nothing); none when the
 * lab refused a value (the refused lines above say whose rule), not tested when the fault never
 * fired.
 */
export function guaranteeLine(
  guarantee:
    { held: boolean; claimed: string; observed: string; tested: boolean } | null | undefined,
  imported: Pick<Imported, 'base' | 'claim'>,
  unfired: readonly string[],
): string {
  // Not run: a value is refused — Kafka's or Flink's ConfigException, PostgreSQL's, or the lab's.
  if (!guarantee)
    return 'guarantee end to end: none — the lab refuses a value of this configuration (above)';
  if (!guarantee.tested)
    return `guarantee end to end: not tested: the fault never fired under this configuration (${imported.base}'s fault)\n${unfired.map((u) => `  ⚠ ${u}`).join('\n')}`;
  const broken = guarantee.held
    ? ''
    : imported.claim.from === 'chosen'
      ? `; you claim ${guarantee.claimed} (--claim), and with your settings it breaks`
      : `; the ${imported.base} workload claims ${guarantee.claimed}, and with your settings it breaks`;
  return `guarantee end to end: ${guarantee.observed} (under ${imported.base}'s fault)${broken}`;
}
