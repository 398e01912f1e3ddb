/**
 * A batch job in the lab's page (in place of the stream's pipeline, counters and panels): the
 * scheduler as a calendar strip of logical dates with each attempt (execution time, window read,
 * outcome), the partitioned table with rows under the wrong partition marked, and the stories.
 * Click an attempt to fail it mid-write or to clear and re-run its date: each is an edit of the
 * scenario, so the page's undo, share link, export and Compare carry it. Everything shown comes
 * from src/views/batch/batchView.ts.
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import type { ScenarioInput } from '../../engine';
import type { LabState } from '../../store/labStore';
import { useActions, useLab, useLabInstance } from '../../store/LabContext';
import { runOf, sameRun } from '../../store/sameRun';
import { PARSE_PENDING, selectParse } from '../../store/selectors';
import {
  batchPageView,
  clearAndRerun,
  failMidWrite,
  type AttemptView,
  type BatchPageView,
} from '../../views/batch/batchView';
import { formatCountOf, ordinal } from '../../views/run/format';
import type { BatchSetupView } from '../../views/batch/batchSetup';
import { HiddenOutcome } from '../library/HiddenOutcome';
import { REVEAL_WAITS_TITLE } from '../library/revealGuard';
import { usePredictionGate } from '../library/usePredictionGate';
import './batch.css';
import { useLandmarkName } from '../landmarkName';

const selectScenario = (s: LabState) => s.scenario;
const selectPresetRef = (s: LabState) => s.presetRef;
const selectReplay = (s: LabState) => s.replay;
// A link or a file opened (its replay, `LabState.replay`), not edited since.
const selectOpenedReplay = (s: LabState) => sameRun(s.replay, s.scenario);

/** A number per link or file opened (`LabState.replay`): each starts a view of its own. */
const replayIds = new WeakMap<ScenarioInput, number>();
let replaysSeen = 0;
function replayId(replay: ScenarioInput | null): number {
  if (replay === null) return 0;
  const run = runOf(replay);
  if (!replayIds.has(run)) replayIds.set(run, ++replaysSeen);
  return replayIds.get(run)!;
}

const NO_REQUESTS: NonNullable<BatchEmbedding['requests']> = { play: 0, restart: 0 };

// What only the lab's page shows (an embed is the author's job as written), each a chunk of its
// own: the batch embed's first load holds neither the atlas's engine nor the knob table (issue 31).
const BatchAtlas = lazy(() => import('./BatchAtlas').then((m) => ({ default: m.BatchAtlas })));
const BatchDedupeKey = lazy(() =>
  import('./BatchDedupeKey').then((m) => ({ default: m.BatchDedupeKey })),
);

/** Real ms between two attempts revealed by Play (the page's, an embed's: see `attemptMs`). */
const REVEAL_MS = 300;

/** How the embedded player (src/ui/batch/BatchEmbed.tsx) shows a batch job. */
export interface BatchEmbedding {
  /**
   * `lock`: the attempts take no click (no fault, no clear) — each is its words, not a disabled
   * button: greyed at 55 % opacity (the page's disabled controls), "try 1 … crashed" read 3.9:1
   * on the projector, the one line the room watches.
   */
  locked: boolean;
  /** Real ms between two attempts revealed (default 300: the page's pace). */
  attemptMs?: number;
  /** `autoplay`: the schedule plays as the player opens (or once this turns true). */
  autoplay: boolean;
  /** The `why` panel: the explanations under the table. */
  why: boolean;
  /**
   * With `predict=1` (./BatchEmbed.tsx): each new `play` plays the schedule on — from the start
   * when it stands at its end — as a locked-in answer plays the stream player; each new `restart`
   * goes back to its start ("Ask again"); each new `end` shows its end at once (the lesson's End
   * key, src/ui/lesson/LessonApp.tsx, which asks the reveal guard first). 0: never asked.
   */
  requests?: { play: number; restart: number; end?: number };
  /**
   * The hidden copy that measures the player's height (src/ui/embed/ReserveHeight.tsx): the
   * schedule stands at this many attempts shown, and nothing plays or reaches the end.
   */
  measureAt?: number;
}

export function BatchRun({ embed }: { embed?: BatchEmbedding } = {}) {
  const scenario = useLab(selectScenario);
  const presetRef = useLab(selectPresetRef);
  const replay = useLab(selectReplay);
  const openedReplay = useLab(selectOpenedReplay);
  // A newly opened preset, link or file (an import) starts at its start with its setup (Play
  // reveals the rest); an edit shows its outcome at once. Each preset and each link or file
  // opened is a view of its own.
  return (
    <BatchRunOf
      key={`${presetRef ?? ''}#${replayId(replay)}`}
      scenario={scenario}
      presetRef={presetRef}
      atStart={presetRef !== null || openedReplay || embed !== undefined}
      embed={embed}
    />
  );
}

function BatchRunOf({
  scenario,
  presetRef,
  atStart,
  embed,
}: {
  scenario: ScenarioInput;
  presetRef: string | null;
  /**
   * The job was just opened (a preset, a link, a file, an embed): its schedule starts at its start,
   * as the stream's run opens at t = 0. Else (one's own job edited, then brought back: undo, a
   * reload) its end, as an edit shows.
   */
  atStart: boolean;
  embed: BatchEmbedding | undefined;
}) {
  const a = useActions();
  // Where the schedule stood when this view last showed this run (`LabState.batchShown`): opening
  // Compare puts the lanes in the view's place, and closing it (or undoing it) brings the view
  // back there, not to its start — as a stream's cursor stays. (An embed is the author's job as
  // written: each player starts as it asks.)
  const lab = useLabInstance();
  const [shownNow, setShown] = useState(() => {
    const kept = embed ? null : lab.app.getState().batchShown;
    if (kept && sameRun(kept.run, scenario)) return kept.attempts;
    return atStart ? 0 : Number.MAX_SAFE_INTEGER;
  });
  useEffect(() => {
    if (!embed) lab.app.setState({ batchShown: { run: runOf(scenario), attempts: shownNow } });
  }, [lab, embed, scenario, shownNow]);
  const measureAt = embed?.measureAt;
  const attemptMs = embed?.attemptMs ?? REVEAL_MS;
  const shown = measureAt ?? shownNow;
  const [playing, setPlaying] = useState(false);
  // Autoplay, once: the embed turns it on when its height is reserved (adjusted while rendering).
  const [autoplayed, setAutoplayed] = useState(false);
  if (embed?.autoplay && !autoplayed) {
    setAutoplayed(true);
    setPlaying(true);
  }
  const [menu, setMenu] = useState<number | null>(null);
  // The store's parse: no zod for one of our presets untouched (an embed's), pending while an
  // edit waits for the validation to load.
  const parsed = useLab(selectParse);
  const fresh = useMemo(() => (parsed === PARSE_PENDING ? null : batchPageView(parsed)), [parsed]);
  // A refused edit keeps the last valid run on screen, as the refusal note says ("the panels show
  // the last valid run"): the note names the problem; Undo brings the scenario back.
  // (State adjusted while rendering, as `answered` below: no effect needed.)
  const [lastValid, setLastValid] = useState<BatchPageView | null>(null);
  if (fresh !== null && !('error' in fresh) && fresh !== lastValid) setLastValid(fresh);
  const view = fresh !== null && 'error' in fresh && lastValid ? lastValid : fresh;
  const total = view === null || 'error' in view ? 0 : view.attempts.length;
  // Another scenario under the same preset (the guarantee switch, undo, a click): its outcome.
  const opened = useRef(scenario);
  // (A copy of the same run — the atlas's kinds ticked — is not another scenario.)
  useEffect(() => {
    if (!sameRun(scenario, opened.current)) setShown(Number.MAX_SAFE_INTEGER);
  }, [scenario]);
  // A new request from the embed's question box, adjusted while rendering (no effect needed).
  const requests = embed?.requests ?? NO_REQUESTS;
  const [answered, setAnswered] = useState(requests);
  if (requests !== answered) {
    setAnswered(requests);
    if (requests.restart !== answered.restart) {
      setShown(0);
      setPlaying(false);
    } else if (requests.end !== answered.end) {
      setShown(Number.MAX_SAFE_INTEGER);
    } else if (requests.play !== answered.play) {
      setShown(shown >= total ? 0 : shown);
      setPlaying(true);
    }
  }
  useEffect(() => {
    if (!playing || shown >= total) return;
    const t = setTimeout(() => {
      // Whatever started it, the schedule waits as the stream's run does (a question asked).
      if (a.forwardRefusal() === null) setShown((n) => n + 1);
      else setPlaying(false);
    }, attemptMs);
    return () => clearTimeout(t);
  }, [a, playing, shown, total, attemptMs]);
  // "Predict first" as on the stream's page: the schedule played to its end is the run's end (a
  // locked-in answer revealed, the outcome unfolded); until then the table and the "why" wait.
  const gate = usePredictionGate();
  const done = shown >= total;
  const { reachEnd, phase } = gate;
  // The page's one rule (library/revealGuard.ts, asked through the store): while the question
  // waits for its answer, the schedule neither plays nor shows its end — each attempt's outcome
  // is on the way to the answer. The buttons say so beforehand, still focusable; a press puts the
  // reason on the status line.
  const waits = phase === 'pending';
  const forward = (move: () => void) => () => {
    if (a.forwardRefusal() === null) move();
  };
  // Space (the page's one keyboard map, src/ui/hooks/useShortcuts.ts) plays and pauses the
  // schedule as it does a stream's run: from where it stands, from the start once at its end.
  useEffect(() => {
    if (measureAt !== undefined) return;
    a.setOwnPlayback(() => {
      // (`playing` stays true once the schedule has played out: at its end Space plays it again.)
      if (playing && !done) setPlaying(false);
      else if (a.forwardRefusal() === null) {
        if (done) setShown(0);
        setPlaying(true);
      }
    });
    return () => a.setOwnPlayback(null);
  }, [a, measureAt, playing, done]);
  useEffect(() => {
    if (done && view !== null && !('error' in view) && measureAt === undefined) reachEnd();
    // `phase`: locking the answer in while the schedule stands at its end reveals it too.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reachEnd is a fresh closure per render
  }, [done, phase, scenario, view]);
  // Named after the player's caption too in an embed (../landmarkName.ts).
  const jobLandmark = useLandmarkName();
  const schedulerLandmark = useLandmarkName();
  const tableLandmark = useLandmarkName();
  const whyLandmark = useLandmarkName();
  if (view === null) return <p className="muted">Checking…</p>;
  if ('error' in view) return <p role="alert">{view.error}</p>;
  const edit = (next: ScenarioInput) => {
    // One undoable edit, still the preset it came from (no longer as shipped).
    a.loadScenario(next, { presetRef });
    setMenu(null);
    setShown(Number.MAX_SAFE_INTEGER);
  };
  return (
    <section className="batch-lab" aria-label="Batch job" {...jobLandmark} data-testid="batch-run">
      <button
        type="button"
        aria-disabled={waits || undefined}
        title={waits ? REVEAL_WAITS_TITLE : undefined}
        onClick={forward(() => {
          setShown(0);
          setPlaying(true);
        })}
      >
        Play the schedule
      </button>{' '}
      <button
        type="button"
        aria-disabled={waits || undefined}
        title={waits ? REVEAL_WAITS_TITLE : undefined}
        onClick={forward(() => setShown(Number.MAX_SAFE_INTEGER))}
      >
        Show the end
      </button>
      {/* An embed is the author's job as written: no edit. */}
      {view.setup.dedupeKey !== null && !embed && (
        <Suspense fallback={null}>
          <BatchDedupeKey
            value={view.setup.dedupeKey}
            onSet={(key) => a.setKnob('batch.dedupeKey', key)}
          />
        </Suspense>
      )}
      {/* Before the run ends, the job's setup: what a stream's pipeline shows before Play. */}
      {!done && <BatchSetup setup={view.setup} />}
      <section aria-label="Scheduler" {...schedulerLandmark} className="batch-strip">
        {view.dates.map((d, i) => (
          <div key={d.label} data-testid="batch-date" className="batch-date">
            <strong>{d.label}</strong>
            <SourceRows source={view.setup.sources[i]} />
            <ol>
              {d.attempts
                .filter((x) => x.id < shown)
                .map((x) => (
                  <li
                    key={x.id}
                    data-testid="batch-attempt"
                    onKeyDown={(e) => {
                      // Escape closes the attempt's actions, the focus back on the attempt.
                      if (e.key !== 'Escape' || menu !== x.id) return;
                      setMenu(null);
                      e.currentTarget.querySelector('button')?.focus();
                    }}
                  >
                    {embed?.locked ? (
                      <span className="batch-attempt-words" title={x.windowLabel}>
                        {attemptWords(x)}
                      </span>
                    ) : (
                      <button
                        type="button"
                        aria-expanded={menu === x.id}
                        onClick={() => setMenu(menu === x.id ? null : x.id)}
                        title={x.windowLabel}
                      >
                        {attemptWords(x)}
                      </button>
                    )}
                    {menu === x.id && (
                      <span role="menu">
                        <button
                          type="button"
                          role="menuitem"
                          onClick={() => edit(failMidWrite(scenario, view, x.id))}
                        >
                          Fail this attempt mid-write
                        </button>
                        <button
                          type="button"
                          role="menuitem"
                          // Past the lab's clock the clear would be refused: said, not offered.
                          aria-disabled={x.clearRefusal !== null || undefined}
                          title={x.clearRefusal ?? undefined}
                          onClick={() => {
                            if (x.clearRefusal === null) edit(clearAndRerun(scenario, view, x.id));
                          }}
                        >
                          Clear and re-run 1 h after it ended
                        </button>
                      </span>
                    )}
                  </li>
                ))}
            </ol>
            {d.skips
              .filter((x) => x.afterAttempts <= shown)
              .map((x) => (
                <p key={x.words} className="muted" data-testid="batch-backfill-skip">
                  {x.words}
                </p>
              ))}
          </div>
        ))}
      </section>
      {done && gate.finalHidden && <HiddenOutcome gate={gate} what="batch-outcome" />}
      {done && !gate.finalHidden && (
        <>
          <section aria-label="Target table" {...tableLandmark}>
            <h2>Target table by partition</h2>
            {view.partitions.map((p) => (
              <div key={p.label} data-testid="batch-partition" className="batch-partition">
                <strong>{p.label}</strong>:{' '}
                {p.rows.map((r, i) => (
                  <span
                    key={i}
                    className="batch-row"
                    data-wrong={r.wrong || undefined}
                    data-copy={r.copy > 1 ? r.copy : undefined}
                  >
                    {r.event}
                    {r.copy > 1 && (
                      <>
                        {' '}
                        <span aria-hidden="true">×{r.copy}</span>
                        <span className="visually-hidden">, {ordinal(r.copy)} copy of its id</span>
                      </>
                    )}
                    {r.wrong ? ' (wrong partition)' : ''}
                  </span>
                ))}
              </div>
            ))}
            {view.partitions.some((p) => p.rows.some((r) => r.copy > 1)) && (
              // The mark in words (it was for screen readers only).
              <p className="muted" data-testid="batch-copy-key">
                ×2: the second copy of an event’s id in the table (×3 the third…).
              </p>
            )}
            <p data-testid="batch-summary">{view.summary}</p>
            {view.unfired.map((u) => (
              <p key={u} className="muted" data-testid="batch-fault-unfired">
                ⚠ {u}
              </p>
            ))}
          </section>
          {(embed?.why ?? true) && (
            <section aria-label="Explanations" {...whyLandmark}>
              {view.explanations.map((e) => (
                <p key={e.template} data-testid="batch-explanation">
                  <strong>{e.fate}</strong> {e.events.join(', ')}: {e.sentence}
                </p>
              ))}
            </section>
          )}
          {!embed && (
            <Suspense fallback={null}>
              <BatchAtlas scenario={scenario} />
            </Suspense>
          )}
        </>
      )}
    </section>
  );
}

/** An attempt in words: "try 1 of 2024-03-10 (…): crashed (after-write), read 2024-03-10 (10 rows)". */
function attemptWords(x: AttemptView): string {
  return `${x.words}: ${x.outcome}, read ${x.window} (${formatCountOf(x.rowsRead, 'row')})`;
}

/** The job as configured: schedule, task, window, write, dedupe, and what is planned to fail. */
function BatchSetup({ setup }: { setup: BatchSetupView }) {
  // Named after the player's caption too in an embed, as the job's other regions are
  // (../landmarkName.ts): e2e/embed-landmarks.spec.ts once found two "Job setup" on one page.
  const landmark = useLandmarkName();
  return (
    <section aria-label="Job setup" {...landmark} className="batch-setup" data-testid="batch-setup">
      <dl>
        {setup.facts.map((f) => (
          <div key={f.what}>
            <dt>{f.what}</dt>
            <dd>{f.words}</dd>
          </div>
        ))}
        {setup.planned.length > 0 && (
          <div>
            <dt>Planned</dt>
            <dd>
              <ul data-testid="batch-planned">
                {setup.planned.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </dd>
          </div>
        )}
      </dl>
    </section>
  );
}

/** A logical date's rows in the source table, late ones marked. */
function SourceRows({ source }: { source: BatchSetupView['sources'][number] | undefined }) {
  if (!source) return null;
  return (
    <p className="batch-source" data-testid="batch-source">
      source:{' '}
      {source.rows.length === 0
        ? 'no rows'
        : source.rows.map((id) => (source.late.includes(id) ? `${id} (late)` : id)).join(' ')}
    </p>
  );
}
