/**
 * The embedded player (`?embed`) on a batch job: the scheduler strip and the table by partition
 * of the page's batch panel (./BatchRun.tsx), the summary line as its verdict at the end, with the
 * author's options that apply to a batch job — caption, autoplay, lock (no click on an attempt,
 * no guarantee switch), the `why` panel, the layout (compact: the dates stacked), and `predict=1`:
 * the question box of the stream player, whose gate (usePredictionGate, in ./BatchRun.tsx) keeps
 * the table and the "why" until the answer is locked in and the schedule has played to its end. Its own lazy
 * chunk: a stream embed does not fetch it. Sized to its content, as the stream player is.
 */
import { useMemo, useRef, useState } from 'react';
import { encodeShare } from '../../platform/share';
import type { LabState } from '../../store/labStore';
import { useLab } from '../../store/LabContext';
import { GuaranteeRadios } from '../GuaranteeRadios';
import { NoticeBar } from '../io/NoticeBar';
import { testIds } from '../testIds';
import type { EmbedOptions } from '../embed/embedOptions';
import { useCompact } from '../embed/useCompact';
import { useReportHeight } from '../embed/useReportHeight';
import { PredictFirst } from '../library/Prediction';
import { EMBED_PREDICT_IDS, embedQuestion } from '../embed/embedQuestion';
import { batchPageView } from '../../views/batch/batchView';
import { BatchRun } from './BatchRun';
import './batch.css';

const selectScenario = (s: LabState) => s.scenario;
const selectStatus = (s: LabState) => s.status;

export function BatchEmbed({
  options,
  presetRef,
}: {
  options: EmbedOptions;
  /** The preset the scenario came from (its question is the default one). */
  presetRef: string | null;
}) {
  const scenario = useLab(selectScenario);
  const status = useLab(selectStatus);
  const root = useRef<HTMLDivElement>(null);
  const compact = useCompact(options.layout);
  useReportHeight(root, options.frameId);
  const fullHref = useMemo(() => `./#${encodeShare(scenario)}`, [scenario]);
  // `predict=1`: the question first, as the stream player asks it (../embed/EmbedApp.tsx);
  // locking the answer in plays the schedule, and autoplay waits for it.
  const [requests, setRequests] = useState({ play: 0, restart: 0 });
  const question = useMemo(() => embedQuestion(options, presetRef), [options, presetRef]);
  const summary = useMemo(() => {
    const v = batchPageView(scenario);
    return 'error' in v ? null : v.summary;
  }, [scenario]);
  const embed = useMemo(
    () => ({
      locked: options.lock,
      autoplay: options.autoplay && !options.predict,
      why: options.panels.includes('why'),
      requests,
    }),
    [options, requests],
  );
  return (
    <div
      ref={root}
      className="embed embed-batch"
      data-testid={testIds.embedPlayer}
      data-status={status}
      data-locked={options.lock}
      data-layout={compact ? 'compact' : 'full'}
      style={options.height !== null ? { height: options.height, overflowY: 'auto' } : undefined}
    >
      <NoticeBar />
      <header className="embed-head">
        <h1 className={options.caption ? 'embed-caption' : 'embed-caption muted'}>
          {options.caption || scenario.name}
        </h1>
        <span className="spacer" />
        {!options.lock && <GuaranteeRadios name="embed-guarantee" />}
        <a href={fullHref} target="_blank" rel="noopener noreferrer" className="embed-open">
          Open in Delivery Lab ↗
        </a>
      </header>
      {options.predict && (
        <div className="embed-prediction">
          <PredictFirst
            question={question}
            onLock={() => setRequests((r) => ({ ...r, play: r.play + 1 }))}
            restart={() => setRequests((r) => ({ ...r, restart: r.restart + 1 }))}
            outcome={
              summary && (
                <p>
                  <strong>The run:</strong> {summary}
                </p>
              )
            }
            original="the scenario as embedded"
            headingLevel={2}
            ids={EMBED_PREDICT_IDS}
          />
        </div>
      )}
      <BatchRun embed={embed} />
    </div>
  );
}
