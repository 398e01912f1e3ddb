import { useMemo } from 'react';
import { lifeAt, partitionAt } from '../../../views/run/at';
import { Icon } from '../../Icon';
import { ComponentBox } from '../ComponentBox';
import { PartitionLog } from '../PartitionLog';
import type { StageProps } from './stageProps';
import { useLandmarkName } from '../../landmarkName';

/** The Kafka cluster: brokers, the coordinator, and the input topic's partition logs. */
export function BrokerStage({ view, idx, t }: StageProps) {
  const input = view.topics.indexOf(view.scenario.workload.topic);
  const brokers = view.actors
    .map((name, a) => ({ name, a }))
    .filter((x) => x.name.startsWith('broker-'));
  const logs = view.logs.filter((l) => l.topic === input);
  // Any topic's (the sink's output topic shows its log in the sink column, under this legend):
  // the checker adds a read_committed point for each topic with transactional records.
  const transactional = view.verdict.points.some((p) => p.name.endsWith(':read_committed'));
  const leaders = useMemo(() => {
    const m = new Map<number, string[]>();
    for (const l of view.logs) {
      const b = partitionAt(l, idx).leader;
      m.set(b, [...(m.get(b) ?? []), l.name]);
    }
    return m;
  }, [view, idx]);
  const landmark = useLandmarkName();
  return (
    <section className="stage" aria-label="Broker" {...landmark}>
      <h2>② Kafka broker</h2>
      <div className="chips">
        {brokers.map(({ name, a }) => {
          const life = lifeAt(view, a, idx, t).life;
          const n = Number(name.slice(7));
          const leads = leaders.get(n) ?? [];
          return (
            <ComponentBox
              key={name}
              id={name}
              anchor={name}
              className={`chip${life === 'down' ? ' down' : ''}`}
              title={
                <span>
                  {name}
                  {leads.length > 0 ? (
                    <span className="muted"> · leads {leads.join(', ')}</span>
                  ) : null}
                </span>
              }
              life={life}
            />
          );
        })}
        <div className="chip" data-anchor="coordinator" title="Group and transaction coordinator">
          coordinator
        </div>
      </div>
      {logs.map((log) => (
        <PartitionLog key={log.name} view={view} log={log} idx={idx} />
      ))}
      <div className="legend" aria-label="Legend">
        <span>
          <b>LEO</b> log end offset
        </span>
        <span>
          <b>HW</b> high watermark
        </span>
        <span>
          <b>LSO</b> last stable offset
        </span>
        <span>
          <b>C</b> committed offset
        </span>
        <span>◌ not replicated yet</span>
        <span>
          <Icon name="hourglass" /> open transaction
        </span>
        <span>⊘ aborted</span>
        {/* Transaction markers take offsets of their own (and their cells): say what they are. */}
        {transactional && (
          <>
            <span>
              <b>C✓</b> commit marker
            </span>
            <span>
              <b>A✕</b> abort marker
            </span>
          </>
        )}
      </div>
    </section>
  );
}
