/**
 * The embedded player (`?embed`) on a batch job: the scheduler strip and the table by partition
 * of the page's batch panel (./BatchRun.tsx), the summary line as its verdict at the end, with the
 * author's options that apply to a batch job — caption, autoplay, lock (no click on an attempt,
 * no guarantee switch), the `why` panel, the layout (compact: the dates stacked), and `predict=1`:
 * the question box of the stream player, whose gate (usePredictionGate, in ./BatchRun.tsx) keeps
 * the table and the "why" until the answer is locked in and the schedule has played to its end. Its own lazy
 * chunk: a stream embed does not fetch it. Its height is reserved for the whole schedule before
 * it is reported, by the stream player's rule (../embed/ReserveHeight.tsx): a hidden copy laid out
 * at the schedule's end and at every eighth of it before, so the host's frame never grows while
 * the schedule plays (issue 31: 578 → 929 px at 480 px).
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { LabState } from '../../store/labStore';
import { useLab } from '../../store/LabContext';
import { PARSE_PENDING, selectParse } from '../../store/selectors';
import { GuaranteeRadios } from '../GuaranteeRadios';
import { NoticeBar } from '../io/NoticeBar';
import { usePage } from '../io/PageContext';
import { testIds } from '../testIds';
import type { EmbedOptions } from '../embed/embedOptions';
import { batchUnusedLines } from '../../views/io/embedValues';
import { useFrameLayout } from '../embed/useFrameLayout';
import { MeasureCopy, reservedHeightStyle } from '../embed/ReserveHeight';
import { scenarioName, useReportHeight } from '../embed/useReportHeight';
import { OpenInLab } from '../embed/OpenInLab';
import { PredictFirst } from '../library/Prediction';
import { EMBED_PREDICT_IDS, embedQuestion } from '../embed/embedQuestion';
import { batchPageView } from '../../views/batch/batchView';
import { BatchRun } from './BatchRun';
import './batch.css';
import { LandmarkCaption } from '../landmarkName';

const selectScenario = (s: LabState) => s.scenario;
const selectStatus = (s: LabState) => s.status;

export function BatchEmbed({
  options,
  presetRef,
  measureAt,
}: {
  options: EmbedOptions;
  /** The preset the scenario came from (its question is the default one). */
  presetRef: string | null;
  /** The hidden copy MeasureCopy lays out, at this many attempts shown: it acts on nothing. */
  measureAt?: number;
}) {
  // Its regions named after its caption too (../landmarkName.ts).
  const captionId = useId();
  const scenario = useLab(selectScenario);
  const status = useLab(selectStatus);
  const root = useRef<HTMLDivElement>(null);
  const { compact, width } = useFrameLayout(options.layout);
  const measuring = measureAt !== undefined;
  // The height reserved for the whole schedule, per scenario (the guarantee switch, an edit) and
  // layout, as the stream player's (../embed/EmbedApp.tsx); `height=` fixes it.
  const [measured, setMeasured] = useState<{ of: unknown; height: number } | null>(null);
  const measureOf = useMemo(() => ({ scenario, compact, width }), [scenario, compact, width]);
  const onMeasured = useCallback(
    (height: number) => setMeasured({ of: measureOf, height }),
    [measureOf],
  );
  const fixed = options.height;
  // Told at once, before the height is measured (the hidden copy lays the notice out too).
  const { notices } = usePage();
  const told = useRef(false);
  useEffect(() => {
    if (measuring || told.current) return;
    told.current = true;
    const lines = batchUnusedLines(options);
    if (lines.length > 0)
      notices.push({
        tone: 'warn',
        text: 'This embed could not use an option as written:',
        lines,
      });
  }, [measuring, options, notices]);
  const needsMeasure = !measuring && fixed === null && measured?.of !== measureOf;
  // The store's parse (no zod for one of our presets untouched): pending while an edit waits
  // for the validation.
  const parsed = useLab(selectParse);
  const view = useMemo(() => (parsed === PARSE_PENDING ? null : batchPageView(parsed)), [parsed]);
  const ran = view !== null && !('error' in view) ? view : null;
  const steps = ran?.attempts.length ?? 0;
  // Reported once the height is known (reserved or fixed): the host's frame is sized once.
  useReportHeight(root, options.frameId, !measuring && !needsMeasure, scenarioName(scenario));
  // `predict=1`: the question first, as the stream player asks it (../embed/EmbedApp.tsx);
  // locking the answer in plays the schedule, and autoplay waits for it.
  const [requests, setRequests] = useState({ play: 0, restart: 0 });
  const question = useMemo(() => embedQuestion(options, presetRef), [options, presetRef]);
  const summary = ran?.summary ?? null;
  const embed = useMemo(
    () => ({
      locked: options.lock,
      // Once the height is reserved: the schedule plays in the frame the host has sized.
      autoplay: options.autoplay && !options.predict && !measuring && !needsMeasure,
      why: options.panels.includes('why'),
      requests,
      measureAt,
    }),
    [options, requests, measureAt, measuring, needsMeasure],
  );
  return (
    <LandmarkCaption.Provider value={captionId}>
      <div
        ref={root}
        className="embed embed-batch"
        data-testid={measuring ? undefined : testIds.embedPlayer}
        data-status={status}
        data-locked={options.lock}
        data-layout={compact ? 'compact' : 'full'}
        data-height={fixed !== null ? 'fixed' : 'reserved'}
        data-measuring={needsMeasure || undefined}
        style={reservedHeightStyle(fixed, measured, needsMeasure)}
      >
        {needsMeasure && (
          <MeasureCopy onMeasured={onMeasured} steps={steps}>
            {(at) => <BatchEmbed options={options} presetRef={presetRef} measureAt={at} />}
          </MeasureCopy>
        )}
        <NoticeBar />
        <header className="embed-head" aria-labelledby={captionId}>
          <h1 id={captionId} className={options.caption ? 'embed-caption' : 'embed-caption muted'}>
            {options.caption || scenario.name}
          </h1>
          <span className="spacer" />
          {!options.lock && <GuaranteeRadios name="embed-guarantee" />}
          {/* The link made when reached for, as the stream player's: no codec (nor zod) before. */}
          <OpenInLab scenario={scenario} />
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
    </LandmarkCaption.Provider>
  );
}
