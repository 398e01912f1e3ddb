import { useEffect, useMemo, useRef, useState } from 'react';
import { encodeShare } from '../../platform/share';
import { findPreset } from '../../scenarios';
import type { Lab, LabState } from '../../store/labStore';
import { LabProvider, useActions, useLab, useView } from '../../store/LabContext';
import { countersAt } from '../../views/at';
import { formatCount } from '../../views/format';
import { questionVariant } from '../../views/library';
import { Counters } from '../Counters';
import { GuaranteeRadios } from '../GuaranteeRadios';
import { useLabDriver } from '../hooks/useLabDriver';
import { NoticeBar } from '../io/NoticeBar';
import { PageProvider, type PageServices } from '../io/PageContext';
import { Explanations } from '../panels/Explanations';
import { Pipeline } from '../pipeline/Pipeline';
import { testIds } from '../testIds';
import '../io/io.css';
import { Transport } from '../Transport';
import type { EmbedOptions } from './embedOptions';
import { lockedLab } from './lockedLab';
import { useReportHeight } from './useReportHeight';
import '../styles.css';

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
}: {
  lab: Lab;
  page: PageServices;
  options: EmbedOptions;
  /** The preset the scenario came from (its prediction is the default question). */
  presetRef: string | null;
}) {
  const lab = useMemo(() => (options.lock ? lockedLab(given) : given), [given, options.lock]);
  useLabDriver(lab);
  return (
    <LabProvider lab={lab}>
      <PageProvider page={page}>
        <Player options={options} presetRef={presetRef} />
      </PageProvider>
    </LabProvider>
  );
}

const selectStatus = (s: LabState) => s.status;
const selectScenario = (s: LabState) => s.scenario;

/** The question to ask: the author's, else the preset's, else the generic one. */
function questionOf(options: EmbedOptions, presetRef: string | null) {
  if (options.question)
    return { question: options.question, answer: options.answer, choices: false };
  const p = presetRef ? findPreset(presetRef) : undefined;
  if (p)
    return {
      question: p.preset.predict.question,
      // The preset's answer is worked out for its first variant; another variant gets the run's.
      answer: questionVariant(p.preset) === p.variant.id ? p.preset.predict.answer : '',
      choices: false,
    };
  return { question: 'What will the sink end with?', answer: '', choices: true };
}

const CHOICES = [
  { id: 'once', label: 'Every event exactly once' },
  { id: 'lost', label: 'Some events lost' },
  { id: 'dup', label: 'Some events twice' },
  { id: 'both', label: 'Some lost and some twice' },
] as const;

function Player({ options, presetRef }: { options: EmbedOptions; presetRef: string | null }) {
  const a = useActions();
  const view = useView();
  const status = useLab(selectStatus);
  const scenario = useLab(selectScenario);
  const root = useRef<HTMLDivElement>(null);
  const [revealed, setRevealed] = useState(!options.predict);
  const [guess, setGuess] = useState<string | null>(null);
  const started = useRef(false);
  useReportHeight(root, options.frameId);

  // Once the first run is ready: go to the start time, set the speed, play if asked to (after
  // the prediction when there is one).
  useEffect(() => {
    if (started.current || status !== 'ready' || !view) return;
    started.current = true;
    if (options.speed !== null) a.setSpeed(options.speed);
    a.seek(options.start);
    if (options.autoplay && revealed) a.play();
  }, [status, view, options, revealed, a]);

  const reveal = (choice: string | null) => {
    setGuess(choice);
    setRevealed(true);
    a.seek(options.start);
    a.play();
  };

  const show = new Set(options.panels);
  const hideOutcome = !revealed;
  const q = questionOf(options, presetRef);
  // The full lab, on the same scenario: the link replays this exact run.
  const fullHref = useMemo(() => `./#${encodeShare(scenario)}`, [scenario]);
  const classes = ['embed'];
  if (!show.has('counters')) classes.push('no-counters');
  if (!show.has('verdict')) classes.push('no-verdict');
  if (hideOutcome) classes.push('hiding-outcome');
  if (options.lock) classes.push('locked');

  return (
    <div
      ref={root}
      className={classes.join(' ')}
      data-testid={testIds.embedPlayer}
      data-status={status}
      data-locked={options.lock}
    >
      <NoticeBar />
      <header className="embed-head">
        {options.caption ? (
          <h1 className="embed-caption" data-testid={testIds.embedCaption}>
            {options.caption}
          </h1>
        ) : (
          <h1 className="embed-caption muted">{scenario.name}</h1>
        )}
        <span className="spacer" />
        {/* The guarantee switch, compact (unlocked embeds only). */}
        {!options.lock && <GuaranteeRadios name="embed-guarantee" />}
        <a href={fullHref} target="_blank" rel="noopener noreferrer" className="embed-open">
          Open in Delivery Lab ↗
        </a>
      </header>
      {!revealed && (
        <section
          className="embed-predict"
          data-testid={testIds.embedPredict}
          aria-label="Predict the outcome"
        >
          <p>
            <strong>Predict first:</strong> {q.question}
          </p>
          {q.choices ? (
            <div className="choices">
              {CHOICES.map((c) => (
                <button key={c.id} type="button" data-choice={c.id} onClick={() => reveal(c.label)}>
                  {c.label}
                </button>
              ))}
            </div>
          ) : (
            <button
              type="button"
              className="primary"
              data-testid={testIds.embedReveal}
              onClick={() => reveal(null)}
            >
              I have my answer — reveal
            </button>
          )}
        </section>
      )}
      {revealed && options.predict && view && (
        <section className="embed-answer" aria-label="The answer" data-testid={testIds.embedAnswer}>
          <div role="status">
            {guess && (
              <p>
                You said: <strong>{guess}</strong>.
              </p>
            )}
            {q.answer && (
              <p>
                <strong>Answer:</strong> {q.answer}
              </p>
            )}
            <Outcome />
          </div>
        </section>
      )}
      {show.has('transport') && (
        <section aria-label="Playback">
          <Transport locked={options.lock} />
        </section>
      )}
      {(show.has('counters') || show.has('verdict')) && !hideOutcome && <Counters />}
      {show.has('pipeline') && <Pipeline />}
      {show.has('why') && !hideOutcome && (
        <div className="embed-why">
          <Explanations />
        </div>
      )}
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
      lost. Observed <strong>{v.observed}</strong> (claimed {v.claimed}).
    </p>
  );
}
