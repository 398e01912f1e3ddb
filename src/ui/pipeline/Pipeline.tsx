import { useRef } from 'react';
import { timeAtIndex } from '../../views/at';
import { useIdx, useView } from '../../store/LabContext';
import { testIds } from '../testIds';
import { BrokerStage, ProcessorStage, ProducerStage, ReaderStage, SinkStage } from './Stages';
import { TokenLayer } from './TokenLayer';

/**
 * The pipeline, left to right as the data flows, with the messages in flight drawn over it.
 * Stages re-render when the cursor crosses an engine event (`idx`), not every frame; only the
 * token layer follows the clock continuously.
 */
export function Pipeline() {
  const view = useView();
  const idx = useIdx();
  const ref = useRef<HTMLElement>(null);
  // The stages keep their minimum widths; on a narrow screen (or a large font) the pipeline
  // scrolls sideways inside its own box rather than pushing the page wider than the window.
  return (
    <div className="pipeline-scroll">
      <main
        ref={ref}
        className={`pipeline${view && view.scenario.processor.type !== 'consumer' ? ' wide-processor' : ''}`}
        aria-label="Pipeline"
        data-testid={testIds.pipeline}
      >
        {view ? (
          <>
            <ProducerStage view={view} idx={idx} t={timeAtIndex(view, idx)} />
            <BrokerStage view={view} idx={idx} t={timeAtIndex(view, idx)} />
            <ProcessorStage view={view} idx={idx} t={timeAtIndex(view, idx)} />
            <SinkStage view={view} idx={idx} t={timeAtIndex(view, idx)} />
            <ReaderStage view={view} idx={idx} t={timeAtIndex(view, idx)} />
          </>
        ) : (
          <p className="muted">Running the scenario…</p>
        )}
        <TokenLayer container={ref} />
      </main>
    </div>
  );
}
