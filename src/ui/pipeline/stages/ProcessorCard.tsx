import { useMemo } from 'react';
import { targetNameOf } from '../../../views/run/actors';
import { type ProcessorStatus } from '../../../views/run/at';
import { lastLeftGroup, processorMaxima } from '../../../views/run/processorAt';
import { formatCount, formatMs } from '../../../views/run/format';
import { eventIdOf, type RunView } from '../../../views/run/runView';
import { useReserveRoom } from '../../hooks/useReserveRoom';
import { ReservingText } from '../../ReservingText';
import { testIds } from '../../testIds';
import { ComponentBox } from '../ComponentBox';
import { useCondensedCards } from '../condensedCards';
import { cardWords } from './cardWords';
import { zeroCount } from './zeroCount';

/** One processor instance: its last poll, the event it processes, its position. */
export function ProcessorCard({ view, status: p }: { view: RunView; status: ProcessorStatus }) {
  const target = targetNameOf(p.name);
  const poll = p.lastPoll;
  const ev =
    p.lastProcess && p.lastProcess.event >= 0
      ? eventIdOf(view.events, view.events.identity[p.lastProcess.event]!)
      : null;
  // Condensed (projector mode), "uncommitted 5": the words after the count (three lines in the
  // narrow column, each consumer's) kept for screen readers; its title says them too.
  const condensed = useCondensedCards();
  // The embed keeps the "left its group" line's room while it is not shown (useReserveRoom).
  const reserve = useReserveRoom();
  const left = p.leftGroup ?? (reserve ? lastLeftGroup(view, p.actor) : null);
  const leftShown = p.leftGroup !== null;
  // Its lines' longest words over the run: a batch's " · 3 done", "12 processed since the last
  // commit" where the end says "none" (two lines more in a 480 px embed's column) — the most
  // since a commit, not all it processed: "250 processed…" where at most 5 ever are is blank.
  const most = useMemo(
    () => (reserve ? processorMaxima(view, p.actor) : null),
    [reserve, view, p.actor],
  );
  return (
    <ComponentBox
      id={target}
      anchor={p.name}
      title={<span className="mono">{cardWords(p.name)}</span>}
      life={p.life}
    >
      <dl className="kv" data-testid={testIds.processor} data-actor={p.name}>
        <dt>incarnation</dt>
        <dd>{p.incarnation}</dd>
        {poll && (
          <>
            <dt>last poll</dt>
            <ReservingText
              as="dd"
              reserve={
                most
                  ? `${most.pollCount} from offset ${most.pollOffset} · ${most.pollCount} done`
                  : undefined
              }
            >
              {poll.count} from offset {poll.offset}
              {p.processedInBatch > 0 ? ` · ${p.processedInBatch} done` : ''}
            </ReservingText>
          </>
        )}
        {ev && (
          <>
            <dt>last processed</dt>
            <dd>
              <span className="mono event-id">{ev}</span> @{p.lastProcess!.offset}
            </dd>
          </>
        )}
        {left && (
          <>
            <dt
              className={leftShown ? undefined : 'reserved-room'}
              aria-hidden={!leftShown || undefined}
            >
              group
            </dt>
            <dd
              className={leftShown ? 'warn' : 'warn reserved-room'}
              aria-hidden={!leftShown || undefined}
              data-testid={leftShown ? testIds.leftGroup : undefined}
              title={
                leftShown
                  ? 'Its poll timeout: the batch kept poll() waiting longer than max.poll.interval.ms. It has no generation now: its next offset commit fails, and its next poll() joins again from the committed offsets.'
                  : undefined
              }
            >
              left at {formatMs(left.at)} (poll timeout) · removed at {formatMs(left.removeAt)}{' '}
              unless it polls first
            </dd>
          </>
        )}
        <dt className={zeroCount(p.sinceCommit)}>{cardWords('uncommitted')}</dt>
        <ReservingText
          as="dd"
          className={p.sinceCommit > 0 ? 'since-commit warn' : zeroCount(0, 'since-commit')}
          reserve={
            most && most.sinceCommit > 0
              ? `${formatCount(most.sinceCommit)}${condensed ? '' : ' processed since the last commit'}`
              : undefined
          }
          data-testid={testIds.sinceCommit}
          data-value={p.sinceCommit}
          title="Records processed since this instance's last offset commit: what a crash now would replay"
        >
          {p.sinceCommit === 0 ? (
            'none'
          ) : (
            <>
              {formatCount(p.sinceCommit)}
              <span className={condensed ? 'visually-hidden' : undefined}>
                {' '}
                processed since the last commit
              </span>
            </>
          )}
        </ReservingText>
      </dl>
    </ComponentBox>
  );
}
