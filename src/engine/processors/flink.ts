import type { World } from '../world';
import type { Cluster, Topic } from '../broker/cluster';
import type { FlinkProcessorConfig, Scenario } from '../scenario/schema';
import type { SinkActor } from '../sinks/table';
import type { ServiceActor } from '../sinks/effects';
import type { RunState } from '../simulate';

export function buildFlink(
  _w: World,
  _s: Scenario,
  _p: FlinkProcessorConfig,
  _c: Cluster,
  _i: Topic,
  _o: Topic | null,
  _sink: SinkActor | null,
  _svc: ServiceActor | null,
  _st: RunState,
): void {
  throw new Error('flink: not yet');
}
