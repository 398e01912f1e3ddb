import { useMemo } from 'react';
import { countersAt, processorsAt } from '../../../views/run/at';
import { formatCountOf } from '../../../views/run/format';
import type { StageProps } from './stageProps';
import { ProcessorCard } from './ProcessorCard';
import { zeroCount } from './zeroCount';
import { useProcessorPanels } from './processorPanelsOnDemand';
import { useLandmarkName } from '../../landmarkName';

/** The consumer loop, the Flink job or the Spark query. */
export function ProcessorStage({ view, idx, t }: StageProps) {
  const statuses = useMemo(() => processorsAt(view, idx, t), [view, idx, t]);
  const kind = view.scenario.processor.type;
  const title =
    kind === 'consumer' ? '③ Consumer loop' : kind === 'flink' ? '③ Flink job' : '③ Spark query';
  const counters = countersAt(view, idx);
  // Flink's checkpoint history and Spark's batch list: each a chunk of its own
  // (./processorPanelsOnDemand.ts).
  const panels = useProcessorPanels(kind);
  const Flink = panels?.FlinkPanel;
  const Batches = panels?.BatchList;
  const landmark = useLandmarkName();
  return (
    <section className="stage" aria-label="Processor" {...landmark}>
      <h2>{title}</h2>
      {statuses.map((p) => (
        <ProcessorCard key={p.actor} view={view} status={p} />
      ))}
      {statuses.length === 0 && <p className="muted">not started yet</p>}
      <div
        className={zeroCount(counters.processed, 'muted')}
        style={{ fontSize: '0.85em' }}
        title="Every attempt counts: a record processed again after a crash or a replay counts twice"
      >
        processed {formatCountOf(counters.processed, 'record')}{' '}
        <span className="attempts-note">(each attempt counts)</span>
      </div>
      {kind === 'flink' && Flink && <Flink view={view} idx={idx} t={t} />}
      {kind === 'spark' && Batches && <Batches view={view} idx={idx} />}
    </section>
  );
}
