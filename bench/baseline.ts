/**
 * The irreducible work of the engine benchmark's pipeline, with no simulation at all: route each
 * event to its partition (Kafka's murmur2 of the key), append it to that partition's array, then
 * read the partitions in order and upsert each event into a Map keyed by its business id.
 * `bench/engine.bench.ts` reports the engine's time as a ratio of this.
 */
import { partitionForKey } from '../src/engine';

/** Run the baseline over `n` events with `keys` distinct keys and `partitions` partitions; returns the map size. */
export function baseline(n: number, keys: number, partitions: number): number {
  const keyNames = Array.from({ length: keys }, (_, k) => `k${k}`);
  const partOfKey = keyNames.map((k) => partitionForKey(k, partitions));
  const logs: number[][] = Array.from({ length: partitions }, () => []);
  for (let i = 0; i < n; i++) logs[partOfKey[i % keys]!]!.push(i);
  const table = new Map<string, number>();
  for (const log of logs) for (const i of log) table.set(`e${i + 1}`, 10 * (i + 1));
  return table.size;
}
