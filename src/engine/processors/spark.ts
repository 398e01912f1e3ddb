import type { World } from '../world';
import type { Cluster, Topic } from '../broker/cluster';
import type { SparkProcessorConfig, Scenario } from '../scenario/schema';
import type { SinkActor } from '../sinks/table';
import type { ServiceActor } from '../sinks/effects';

export function buildSpark(
  _w: World,
  _s: Scenario,
  _p: SparkProcessorConfig,
  _c: Cluster,
  _i: Topic,
  _sink: SinkActor | null,
  _svc: ServiceActor | null,
): void {
  throw new Error('spark: not yet');
}
