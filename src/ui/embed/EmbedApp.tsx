import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { Lab, LabState } from '../../store/labStore';
import { LabProvider, useActions, useLab, useLabInstance, useView } from '../../store/LabContext';
import { countersAt } from '../../views/run/at';
import { formatCount } from '../../views/run/format';
import { Counters } from '../Counters';
import { GuaranteeRadios } from '../GuaranteeRadios';
import { useLabDriver } from '../hooks/useLabDriver';
import { ReserveRoom } from '../hooks/useReserveRoom';
import { NoticeBar } from '../io/NoticeBar';
import { PageProvider, usePage, type PageServices } from '../io/PageContext';
import { PredictionProvider } from '../library/PredictionContext';
import { usePredictionGate } from '../library/usePredictionGate';
import type { Explanations } from '../panels/Explanations';
import { Pipeline } from '../pipeline/Pipeline';
import { testIds } from '../testIds';
import '../io/io.css';
import './embed.css';
import './embedCompact.css';
import { Transport } from '../Transport';
import { startPastEndLine, startWithQuestionLine, type EmbedOptions } from './embedOptions';
import type { EmbedPredictionBox } from './EmbedPrediction';
import { embedSubject, unaskedSubject } from './embedSubject';
import { lockedLab } from './lockedLab';
import { OpenInLab } from './OpenInLab';
import { processorPanelsIn, useProcessorPanels } from '../pipeline/stages/processorPanelsOnDemand';
import { MeasureInPlace, reservedHeightStyle, SettlingLine, settlingStyle } from './ReserveHeight';
import { useFrameLayout } from './useFrameLayout';
import { useEmbedTheme } from './useEmbedTheme';
import { scenarioName, useReportHeight } from './useReportHeight';
import '../styles.css';
import { LandmarkCaption } from '../landmarkName';

/**
 * The embedded player (`?embed`): the pipeline, the time controls, the counters and the verdict,
 * sized to its content (it reports its height to the host page), with the author's options:
 * autoplay, start time, panels, caption, locked knobs, and "predict, then reveal".
 */
export function EmbedApp({
  lab: given,
  page,
  options,
  presetRef,
  linkRefused = false,
  prediction = null,
  why = null,
}: {
  lab: Lab;
  page: PageServices;
  options: EmbedOptions;
  /**
   * The explanations' panel, imported by src/embedMain.tsx only for `panels=…,why` (its own
   * chunk, issue 31): a player that does not show the "why" loads none of it.
   */
  why?: typeof Explanations | null;
  /**
   * The question box, imported by src/embedMain.tsx only for `predict=1` (its own chunk): a
   * player that asks nothing loads none of it.
   */
  prediction?: EmbedPredictionBox | null;
  /** The preset the scenario came from (its prediction is the default question). */
  presetRef: string | null;
  /**
   * The embed's share link or preset could not be opened: the notice says why and nothing plays
   * (the default scenario under the banner read as the author's lesson).
   */
  linkRefused?: boolean;
}) {
  const lab = useMemo(() => (options.lock ? lockedLab(given) : given), [given, options.lock]);
  useLabDriver(lab);
  useEmbedTheme(options.theme);
  return (
    // Every part keeps the room of its fullest state from the first frame (useReserveRoom).
    <ReserveRoom.Provider value={true}>
      <LabProvider lab={lab}>
        <PageProvider page={page}>
          {linkRefused ? (
            <Refused frameId={options.frameId} />
          ) : (
            <Asking predict={options.predict}>
              <BatchOrStream
                options={options}
                presetRef={presetRef}
                prediction={prediction}
                why={why}
              />
            </Asking>
          )}
        </PageProvider>
      </LabProvider>
    </ReserveRoom.Provider>
  );
}

const selectStatus = (s: LabState) => s.status;
const selectScenario = (s: LabState) => s.scenario;
const selectBatch = (s: LabState) => s.scenario.batch !== undefined;

// A batch job plays in its own player: a lazy chunk, so a stream embed does not fetch it.
const BatchEmbed = lazy(() =>
  import('../batch/BatchEmbed').then((m) => ({ default: m.BatchEmbed })),
);

// Compare (`panels=compare`) in a lazy chunk too, with its lanes' logic: a player that does not
// show it fetches none of it.
const EmbedCompare = lazy(() =>
  import('../compare/EmbedCompare').then((m) => ({ default: m.EmbedCompare })),
);

function BatchOrStream(props: {
  options: EmbedOptions;
  presetRef: string | null;
  prediction: EmbedPredictionBox | null;
  why: typeof Explanations | null;
}) {
  const batch = useLab(selectBatch);
  if (!batch) return <Player {...props} />;
  return (
    <Suspense fallback={null}>
      <BatchEmbed options={props.options} presetRef={props.presetRef} />
    </Suspense>
  );
}

/**
 * With `predict=1`, the page's "Predict first" (src/ui/library) about the scenario the embed was
 * given: the verdict and the explanations wait for the reveal, as on the page. Without it, the
 * same gate with nothing asked: the final verdict waits for the run's end (`unaskedSubject`).
 */
function Asking({ predict, children }: { predict: boolean; children: ReactNode }) {
  const lab = useLabInstance();
  // The scenario as embedded, once: the subject is a selector, so it must not change identity.
  const [subject] = useState(() =>
    (predict ? embedSubject : unaskedSubject)(lab.app.getState().scenario),
  );
  return <PredictionProvider subject={subject}>{children}</PredictionProvider>;
}

function Player({
  options,
  presetRef,
  prediction,
  why: Why,
}: {
  options: EmbedOptions;
  presetRef: string | null;
  prediction: EmbedPredictionBox | null;
  why: typeof Explanations | null;
}) {
  const a = useActions();
  const view = useView();
  const status = useLab(selectStatus);
  const scenario = useLab(selectScenario);
  const root = useRef<HTMLDivElement>(null);
  // Its regions are named after its caption too: unique on a page with several frames
  // (../landmarkName.ts).
  const captionId = useId();
  const playbackId = useId();
  const started = useRef(false);
  const played = useRef(false);
  const gate = usePredictionGate();
  const phase = gate.phase;
  // Where the run opens: `t=`, or 0 while a question waits (set once the run is ready).
  const openedAt = useRef(options.start);
  const { notices } = usePage();
  const { compact, width } = useFrameLayout(options.layout);
  // In the compact layout the legends (the broker's key to LEO, HW…) fold behind a toggle.
  const [legends, setLegends] = useState(false);
  // The height reserved for the whole run (ReserveHeight.tsx), per run, layout and frame width;
  // `height=` fixes it.
  const [measured, setMeasured] = useState<{ of: unknown; height: number } | null>(null);
  const measureOf = useMemo(
    () => ({ view, compact, legends, width }),
    [view, compact, legends, width],
  );
  const onMeasured = useCallback(
    (height: number) => setMeasured({ of: measureOf, height }),
    [measureOf],
  );
  const fixed = options.height;
  const needsMeasure = fixed === null && view !== null && measured?.of !== measureOf;
  // Reported once the height is known (reserved or fixed): the host's frame is sized once.
  useReportHeight(root, options.frameId, view !== null && !needsMeasure, scenarioName(scenario));
  // Painted only once laid out as it will stay: the run, its Flink/Spark panels (a chunk of
  // their own) and its height in. Before, the "no run yet" layout was shown and then pushed
  // down and grown by the run's (layout shift 0.6: issue 31).
  const kind = view?.scenario.processor.type;
  const processorIn = processorPanelsIn(kind, useProcessorPanels(kind));
  // Compare (`panels=compare`) is a chunk of its own whose lanes run in a worker: measured before
  // they were in, the frame kept the height of the player without them and its lanes scrolled
  // inside it (a 668 px column: 581 px reserved for 1,648 px). The measure waits for them too.
  const [compareIn, setCompareIn] = useState(false);
  const onCompareSettled = useCallback(() => setCompareIn(true), []);
  const panelsIn = processorIn && (compareIn || !options.panels.includes('compare'));
  const settling = view === null || needsMeasure || !panelsIn;

  // Once the first run is ready: go to the start time, set the speed, play if asked to — unless
  // a prediction is asked first: then locking it in plays.
  useEffect(() => {
    // After the height is reserved: autoplay starts in the frame the host has sized.
    if (needsMeasure || started.current || status !== 'ready' || !view) return;
    started.current = true;
    if (options.speed !== null) a.setSpeed(options.speed);
    // At 0 the run stays where it opened, at event 0 (nothing applied) as on the page: seeking
    // to 0 ms would land after the entries at 0 ms ("event 1").
    // While a question waits, `t=` would show what happened before the answer (t past the end:
    // the whole outcome): it opens at 0 ms and the author is told (docs/embed.md).
    const held = options.predict && gate.hidden && options.start > 0;
    const start = (openedAt.current = held ? 0 : options.start);
    if (start > 0) a.openAt(start);
    // A start time at or past the run's end shows the end: playing from there would start the
    // run over from 0, which is not where the author asked it to open.
    if (options.autoplay && !options.predict && start < view.endTime) a.play();
  }, [needsMeasure, status, view, options, a, gate.hidden]);
  // Past the end, or held back by a question, the author is told (the run's length is known only
  // now, so not in the address's notice) — as soon as the run is in, before the height is
  // measured: pushed after it, the notice's lines scrolled inside the reserved height (t=40000 on
  // a 30 s run: 782 px reserved for 857).
  const told = useRef(false);
  useEffect(() => {
    if (told.current || status !== 'ready' || !view) return;
    told.current = true;
    const held = options.predict && gate.hidden && options.start > 0;
    const past = held
      ? startWithQuestionLine(options.start)
      : startPastEndLine(options.start, view.endTime);
    if (past)
      notices.push({
        tone: 'warn',
        text: 'This embed could not use an option as written:',
        lines: [past],
      });
  }, [status, view, options, notices, gate.hidden]);
  // Autoplay that waited for a prediction the reader skipped ("Show the answer")
  // plays now; once, so an answer revealed at the end of the run does not play it again.
  useEffect(() => {
    if (!options.autoplay || played.current || phase !== 'revealed') return;
    played.current = true;
    a.play();
  }, [options.autoplay, phase, a]);
  const playOn = () => {
    played.current = true;
    a.play();
  };

  // Back to where the author's start time put the reader (the page's Restart goes to event 0).
  const toStart = () => {
    a.restart();
    if (openedAt.current > 0) a.openAt(openedAt.current);
  };

  const show = new Set(options.panels);
  const Prediction = prediction;
  const classes = ['embed'];
  if (!show.has('counters')) classes.push('no-counters');
  if (!show.has('verdict')) classes.push('no-verdict');
  if (options.lock) classes.push('locked');

  return (
    <LandmarkCaption.Provider value={captionId}>
      <div
        ref={root}
        className={classes.join(' ')}
        data-testid={testIds.embedPlayer}
        data-status={status}
        data-locked={options.lock}
        data-layout={compact ? 'compact' : 'full'}
        data-legends={compact && !legends ? 'folded' : 'shown'}
        data-height={fixed !== null ? 'fixed' : 'reserved'}
        data-measuring={needsMeasure || undefined}
        aria-busy={settling || undefined}
        style={settlingStyle(reservedHeightStyle(fixed, measured, needsMeasure), settling)}
      >
        {settling && <SettlingLine />}
        {/* Laid out at the run's end first, hidden, for the height to reserve (ReserveHeight.tsx).
          Nothing before the run is in: hidden until then, the "no run yet" player was a render,
          a layout and its effects (the token layer's anchors measured) on the way to the first
          paint, and the run's render an update of all of it (issue 31, docs/benchmarks.md). */}
        {view !== null && (
          <MeasureInPlace
            root={root}
            of={measureOf}
            active={needsMeasure && panelsIn}
            onMeasured={onMeasured}
          >
            <NoticeBar />
            <header className="embed-head" aria-labelledby={captionId}>
              {options.caption ? (
                <h1 id={captionId} className="embed-caption" data-testid={testIds.embedCaption}>
                  {options.caption}
                </h1>
              ) : (
                <h1 id={captionId} className="embed-caption muted">
                  {scenario.name}
                </h1>
              )}
              {/* Compact: the link shares the caption's row (embedCompact.css). */}
              {compact && <OpenInLab scenario={scenario} short />}
              <span className="spacer" />
              {/* The guarantee switch, compact (unlocked embeds only). */}
              {!options.lock && <GuaranteeRadios name="embed-guarantee" />}
              {compact && (
                <button
                  type="button"
                  className="embed-legends"
                  aria-pressed={legends}
                  onClick={() => setLegends((x) => !x)}
                  data-testid={testIds.embedLegends}
                >
                  Legend
                </button>
              )}
              {/* The full lab, on the same scenario (its share link, made on first reach). */}
              {!compact && <OpenInLab scenario={scenario} />}
            </header>
            {options.predict && Prediction && (
              <div className="embed-prediction">
                {/* Locking the answer in plays on (from where the reader is; from the start at the
              end); the answer, and the outcome with it, wait for the end or "Reveal now". */}
                <Prediction
                  options={options}
                  presetRef={presetRef}
                  onLock={playOn}
                  restart={toStart}
                  outcome={view && <Outcome />}
                />
              </div>
            )}
            {show.has('transport') && (
              <section
                aria-label="Playback"
                id={playbackId}
                aria-labelledby={`${playbackId} ${captionId}`}
              >
                <Transport locked={options.lock} />
              </section>
            )}
            {/* Counters show what has happened so far; the verdict and the explanations wait for the
          prediction's reveal (the page's gate, usePredictionGate). */}
            {(show.has('counters') || show.has('verdict')) && <Counters />}
            {show.has('pipeline') && <Pipeline />}
            {show.has('why') && Why && (
              <div className="embed-why">
                <Why />
              </div>
            )}
            {show.has('compare') && (
              <Suspense fallback={null}>
                <EmbedCompare locked={options.lock} onSettled={onCompareSettled} />
              </Suspense>
            )}
          </MeasureInPlace>
        )}
      </div>
    </LandmarkCaption.Provider>
  );
}

/** What an embed whose scenario could not be opened, or that names none, shows: why (the notice), and no player. */
function Refused({ frameId }: { frameId: EmbedOptions['frameId'] }) {
  const root = useRef<HTMLDivElement>(null);
  useReportHeight(root, frameId);
  return (
    <div ref={root} className="embed" data-testid={testIds.embedRefused}>
      <NoticeBar />
      <p className="embed-refused">
        Nothing to play: this embed names no scenario the lab can open (see above). Its author can
        make a new snippet with Embed in{' '}
        <a href="./" target="_blank" rel="noopener noreferrer">
          Delivery Lab ↗
        </a>
        .
      </p>
    </div>
  );
}

/** The run's outcome in one line (at its end). */
function Outcome() {
  const view = useView();
  if (!view) return null;
  const c = countersAt(view, view.n);
  const v = view.verdict;
  return (
    <p>
      <strong>The run:</strong> {formatCount(c.rows)} rows for {formatCount(c.events)} events —{' '}
      {formatCount(c.duplicates)} duplicate{c.duplicates === 1 ? '' : 's'}, {formatCount(c.missing)}{' '}
      lost. Observed <strong>{v.observed}</strong> at {v.primaryLabel} (claimed {v.claimed}).
    </p>
  );
}
