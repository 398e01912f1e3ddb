import type { Scenario } from '../../../engine';
import { lifeAt } from '../../../views/run/at';
import { sqlShape } from '../../../views/run/format';
import { SinkSqlView } from '../../sql/SinkSqlView';
import { ComponentBox } from '../ComponentBox';
import { PartitionLog } from '../PartitionLog';
import { RowTable } from '../RowTable';
import type { StageProps } from './stageProps';
import { ServiceBox } from './ServiceBox';
import { useLandmarkName } from '../../landmarkName';

/** The sink: a table, an output topic, or an external service. */
export function SinkStage({ view, idx, t }: StageProps) {
  const s = view.scenario;
  const table = view.tables.find((x) => x.point === 'sink');
  const life = lifeAt(view, view.actors.indexOf('sink'), idx, t).life;
  const output = s.sink.type === 'kafka' ? view.topics.indexOf(s.sink.topic) : -1;
  const serviceActor = view.actors.indexOf('service');
  const landmark = useLandmarkName();
  return (
    <section className="stage" aria-label="Sink" {...landmark}>
      <h2>④ Sink</h2>
      {table && (
        <ComponentBox
          id="sink"
          anchor="sink"
          life={life}
          title={
            <span>
              {s.sink.type === 'table'
                ? 'PostgreSQL'
                : s.sink.type === 'delta'
                  ? 'Delta Lake'
                  : 'files'}{' '}
              <span className="mono">{table.label}</span>
            </span>
          }
        >
          {s.sink.type === 'table' && (
            <div className="muted mono sink-statement" style={{ fontSize: '0.86em' }}>
              {sqlOf(s)}
            </div>
          )}
          <RowTable view={view} table={table} idx={idx} />
          <SinkSqlView view={view} />
        </ComponentBox>
      )}
      {output >= 0 && (
        <>
          <div className="muted" style={{ fontSize: '0.85em' }}>
            output topic <span className="mono">{view.topics[output]}</span> (on the Kafka cluster)
          </div>
          {view.logs
            .filter((l) => l.topic === output)
            .map((log) => (
              <PartitionLog key={log.name} view={view} log={log} idx={idx} />
            ))}
        </>
      )}
      {serviceActor >= 0 && <ServiceBox view={view} idx={idx} />}
    </section>
  );
}

function sqlOf(s: Scenario): string {
  if (s.sink.type !== 'table') return '';
  // Flink's JDBC exactly-once sink: the statements run in the epoch's XA transaction.
  if (s.sink.xa) return `${sqlShape(s.sink)} · in an XA transaction per checkpoint`;
  return sqlShape(s.sink);
}
