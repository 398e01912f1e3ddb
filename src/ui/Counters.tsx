import { useMemo, type ReactNode } from 'react';
import { countersAt } from '../views/run/at';
import { longestSumCaption, sumCaption } from '../views/run/counterCaptions';
import { duplicatesMark, missingMark, NEUTRAL_MARK } from '../views/run/counterMarks';
import { formatCount, formatCountOf, formatMoney, formatMs, pluralOf } from '../views/run/format';
import type { RunView } from '../views/run/runView';
import { useIdx, useView } from '../store/LabContext';
import { useReserveRoom } from './hooks/useReserveRoom';
import { Icon } from './Icon';
import { ReservingText } from './ReservingText';
import { HiddenOutcome } from './library/HiddenOutcome';
import { usePredictionGate } from './library/usePredictionGate';
import { testIds } from './testIds';
import { useLandmarkName } from './landmarkName';

/**
 * Live counters at the cursor, and the run's verdict (claimed vs observed). In the embed
 * ({@link useReserveRoom}) each caption takes from the first frame the room of its longest over
 * the run, so the counters' height never moves while the run plays (issue 31).
 * @param prediction - shown in the verdict's card while the verdict waits (the page's answer
 *   locked in, `LockedPrediction`): what the run will be compared with, beside what to do next.
 */
export function Counters({ prediction }: { prediction?: ReactNode } = {}) {
  const view = useView();
  const idx = useIdx();
  const reserve = useReserveRoom();
  const landmark = useLandmarkName();
  if (!view)
    return (
      <section
        className="counters"
        aria-label="Counters"
        {...landmark}
        data-testid={testIds.counters}
      />
    );
  return <CountersOf view={view} idx={idx} prediction={prediction} reserve={reserve} />;
}

function CountersOf({
  view,
  idx,
  prediction,
  reserve,
}: {
  view: RunView;
  idx: number;
  prediction: ReactNode;
  reserve: boolean;
}) {
  const c = useMemo(() => countersAt(view, idx), [view, idx]);
  const longestSum = useMemo(
    () => (reserve ? longestSumCaption(view) : undefined),
    [reserve, view],
  );
  const sumWords = sumCaption(c, view.cutOff);
  const where = view.verdict.primaryLabel;
  const over = c.doubleAmount;
  // Where the counts are taken: the sink, else the end of the pipeline ("rows in the sink" read
  // wrong beside a topic sink of 30 records whose reader held 20).
  const primary = view.verdict.primary;
  const at =
    primary === 'sink'
      ? 'in the sink'
      : primary.startsWith('reader:')
        ? `at reader ${primary.slice('reader:'.length)}`
        : primary === 'effects'
          ? 'at the service'
          : `in topic ${primary.slice('log:'.length)}`;
  const unit = primary === 'effects' ? 'effects' : primary.startsWith('log:') ? 'records' : 'rows';
  const notYet = `not ${at} yet`;
  const gone = view.cutOff ? 'lost or unfinished at the stop' : 'lost events';
  const landmark = useLandmarkName();
  return (
    <section
      className="counters"
      aria-label="Counters at the cursor"
      {...landmark}
      data-testid={testIds.counters}
    >
      <div className="counter" data-testid={testIds.counterSent} data-value={c.sent}>
        <div className="value">
          {formatCount(c.sent)}
          <span className="muted value-of"> / {formatCount(c.events)}</span>
        </div>
        <div className="caption">business events sent</div>
      </div>
      <div className="counter" data-testid={testIds.counterRows} data-value={c.rows}>
        <div className="value">{formatCount(c.rows)}</div>
        <div className="caption" title={`rows in ${where}`}>
          {unit} {at}
        </div>
      </div>
      <div
        className={`counter${c.duplicates > 0 ? ' bad-dup' : ''}`}
        data-testid={testIds.counterDuplicates}
        data-value={c.duplicates}
      >
        <div className="value">
          {duplicatesMark(c.duplicates) === 'copy' ? (
            <Icon name="dup" />
          ) : (
            <span aria-hidden="true">{NEUTRAL_MARK}</span>
          )}{' '}
          {formatCount(c.duplicates)}
        </div>
        <ReservingText
          className="caption"
          reserve={reserve ? 'duplicate rows' : undefined}
          title={`${formatCountOf(c.doubleCounted, 'event')} applied twice or more`}
        >
          {pluralOf(c.duplicates, 'duplicate row')}
        </ReservingText>
      </div>
      <div
        className={`counter${c.final && c.missing > 0 ? ' bad-lost' : ''}`}
        data-testid={testIds.counterMissing}
        data-value={c.missing}
        data-final={c.final}
      >
        <div className="value">
          <span aria-hidden="true">{missingMark(c.missing, c.final)} </span>
          {formatCount(c.missing)}
        </div>
        <ReservingText className="caption" reserve={reserve ? longer(notYet, gone) : undefined}>
          {/* Cut off with work pending: some of these were only on their way, not lost. */}
          {!c.final ? notYet : gone}
        </ReservingText>
      </div>
      <div
        className={`counter wide${over > 0 ? ' bad-dup' : c.final && c.missingAmount > 0 ? ' bad-lost' : ''}`}
        data-testid={testIds.counterSum}
        data-value={c.sum}
        data-double={over}
      >
        <div className="value">
          {formatMoney(c.sum)}
          <span className="muted value-of"> of {formatMoney(c.trueSum)}</span>
        </div>
        <ReservingText className="caption" reserve={longestSum}>
          {sumWords.double !== null ? <strong>{sumWords.double}</strong> : 'nothing double-counted'}
          {sumWords.rest}
        </ReservingText>
      </div>
      <Verdict view={view} prediction={prediction} />
    </section>
  );
}

function longer(a: string, b: string): string {
  return b.length > a.length ? b : a;
}

/** Stuck components listed under the verdict. */
const STUCK_SHOWN = 4;

function Verdict({ view, prediction }: { view: RunView; prediction: ReactNode }) {
  const v = view.verdict;
  // "Predict first": the verdict is the answer, so it waits for the reveal.
  const gate = usePredictionGate();
  if (gate.finalHidden)
    return (
      <div className="counter verdict-card">
        {/* The prediction on the title's line: the card, and the counters' row, no taller. */}
        <div className="verdict-line">
          Verdict
          {prediction}
        </div>
        <HiddenOutcome gate={gate} what="verdict" />
      </div>
    );
  return (
    <div
      className={`counter verdict-card${v.held ? '' : ' bad-lost'}`}
      data-testid={testIds.verdict}
      data-observed={v.observed}
      data-held={v.held}
    >
      <div className="verdict-line">
        <span aria-hidden="true">{v.held ? '✓ ' : '✕ '}</span>
        Observed <strong>{v.observed}</strong>, claimed {v.claimed}: {v.held ? 'held' : 'broken'}
        {/* A cut-off run counts unfinished events as lost: its verdict is the run so far. */}
        {view.cutOffBy === 'stuck' ? ' (so far: stuck)' : view.cutOff && ' (so far: cut off)'}
      </div>
      <div className="caption">
        verdict of the whole run, judged at {v.primaryLabel}
        {v.primaryRereads > 0 &&
          ` (each record it read counted once: ${formatCountOf(v.primaryRereads, 'row')} it copied again itself, after a crash before its commit, are its own replay)`}
        {v.latency.count > 0
          ? ` · latency p50 ${formatMs(v.latency.p50)}, p99 ${formatMs(v.latency.p99)}`
          : ''}
      </div>
      {view.cutOff && (
        <div className="caption" data-testid={testIds.verdictCutOff}>
          {view.cutOffBy === 'stuck' ? (
            <>
              <strong>Stuck at {formatMs(view.endTime)}</strong>: nothing was left to happen, but a
              component waits forever — the run did not finish, and the events it holds count as
              lost.
            </>
          ) : (
            <>
              <strong>Cut off at {formatMs(view.endTime)}</strong>{' '}
              {view.cutOffBy === 'trace-limit'
                ? `with work still pending: ${view.cutOffWords}. Events not yet sent or still on their way count as lost.`
                : '(stopAtMs, or the default: the last event or fault + 1 h) with work still pending: events not yet sent or still on their way count as lost.'}
            </>
          )}
        </div>
      )}
      {view.cutOff && view.stuck.length > 0 && (
        <ul className="caption" data-testid={testIds.verdictStuck}>
          {view.stuck.slice(0, STUCK_SHOWN).map((x, i) => (
            <li key={i}>
              {view.cutOffBy === 'stuck' ? 'Stuck: ' : 'Still waiting: '}
              <strong>{x.component}</strong>, since {formatMs(x.since)}, waits for {x.what}
            </li>
          ))}
          {view.stuck.length > STUCK_SHOWN && (
            <li>and {view.stuck.length - STUCK_SHOWN} more (the JSON export has them all)</li>
          )}
        </ul>
      )}
    </div>
  );
}
