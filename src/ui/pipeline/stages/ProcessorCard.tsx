import { targetNameOf } from '../../../views/run/actors';
import { type ProcessorStatus } from '../../../views/run/at';
import { formatCount, formatMs } from '../../../views/run/format';
import { eventIdOf, type RunView } from '../../../views/run/runView';
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
            <dd>
              {poll.count} from offset {poll.offset}
              {p.processedInBatch > 0 ? ` · ${p.processedInBatch} done` : ''}
            </dd>
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
        {p.leftGroup && (
          <>
            <dt>group</dt>
            <dd
              className="warn"
              data-testid={testIds.leftGroup}
              title="Its poll timeout: the batch kept poll() waiting longer than max.poll.interval.ms. It has no generation now: its next offset commit fails, and its next poll() joins again from the committed offsets."
            >
              left at {formatMs(p.leftGroup.at)} (poll timeout) · removed at{' '}
              {formatMs(p.leftGroup.removeAt)} unless it polls first
            </dd>
          </>
        )}
        <dt className={zeroCount(p.sinceCommit)}>{cardWords('uncommitted')}</dt>
        <dd
          className={p.sinceCommit > 0 ? 'since-commit warn' : zeroCount(0, 'since-commit')}
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
        </dd>
      </dl>
    </ComponentBox>
  );
}
