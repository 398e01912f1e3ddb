import { lifeAt, producerAt, producerSettings } from '../../../views/run/at';
import { formatCount } from '../../../views/run/format';
import { testIds } from '../../testIds';
import { ComponentBox } from '../ComponentBox';
import { useCondensedCards } from '../condensedCards';
import { cardWords } from './cardWords';
import { SettingName } from './SettingName';
import type { StageProps } from './stageProps';
import { zeroCount } from './zeroCount';
import { useLandmarkName } from '../../landmarkName';

/** The source application and its Kafka producer. */
export function ProducerStage({ view, idx, t }: StageProps) {
  const s = view.scenario;
  const settings = producerSettings(s);
  const [idempotence, why] = splitWhy(settings.idempotence);
  const c = producerAt(view, idx);
  const life = lifeAt(view, view.actors.indexOf('producer'), idx, t).life;
  // Condensed, "app + Kafka producer" (three lines in its column) is said by "① Producer": kept
  // for screen readers, it names the button that opens the producer's faults.
  const condensed = useCondensedCards();
  const landmark = useLandmarkName();
  return (
    <section className="stage" aria-label="Producer" {...landmark}>
      <h2>① Producer</h2>
      <ComponentBox
        id="producer"
        title="app + Kafka producer"
        anchor="producer"
        life={life}
        titleHidden={condensed}
      >
        <dl className="kv">
          <dt>acks</dt>
          <dd className="mono">{settings.acks}</dd>
          <dt>{cardWords('idempotence')}</dt>
          <dd>
            <span className="mono">{cardWords(idempotence)}</span>
            {/* Why it is so, in words: the condensed cards with a room live fold it (lesson.css).
                Broken at its spaces only, "on" / "(transactional)" (settingName.css). */}
            {why && <span className="setting-why"> {why}</span>}
          </dd>
          {s.producer['transactional.id'] !== undefined && (
            <>
              <dt className="setting-name">
                <SettingName name="transactional.id" />
              </dt>
              <dd className="mono">{s.producer['transactional.id']}</dd>
            </>
          )}
          <dt title="Business events the application handed to send() for the first time, of all the workload's events">
            records sent
          </dt>
          <dd className="num" data-testid={testIds.producerSent} data-value={c.sent}>
            {formatCount(c.sent)} / {formatCount(view.events.identities)}
          </dd>
          {settings.acks === '0' ? (
            <dt
              className={zeroCount(c.acks)}
              title="acks=0: the broker never answers; a record counts as done as soon as it is written to the network"
            >
              done, unacked
            </dt>
          ) : (
            <dt
              className={zeroCount(c.acks)}
              title="Records whose batch the broker acknowledged (one acknowledgement can cover several records)"
            >
              acked
            </dt>
          )}
          <dd
            className={zeroCount(c.acks, 'num')}
            data-testid={testIds.producerAcked}
            data-value={c.acks}
          >
            {formatCount(c.acks)}
          </dd>
          <dt
            className={zeroCount(c.retries)}
            title="Records the producer re-sent itself (retries) after an error or a request timeout; the application does not see these"
          >
            retried
          </dt>
          <dd
            className={c.retries > 0 ? 'num since-commit warn' : zeroCount(c.retries, 'num')}
            data-testid={testIds.producerRetried}
            data-value={c.retries}
          >
            {formatCount(c.retries)}
          </dd>
          {c.resent > 0 && (
            <>
              <dt title="Events the application sent again itself (a re-send after a timeout, a duplicate from the source, a transaction re-sent)">
                re-sent by app
              </dt>
              <dd className="since-commit warn">{formatCount(c.resent)}</dd>
            </>
          )}
          {c.dedupes > 0 && (
            <>
              <dt title="Retried records the broker recognised by producer id and sequence number (enable.idempotence) and did not append again">
                deduped by broker
              </dt>
              <dd>{formatCount(c.dedupes)}</dd>
            </>
          )}
          {c.failures > 0 && (
            <>
              <dt title="Records the producer gave up on (retries or delivery.timeout.ms exhausted), or whose send the application stopped waiting for">
                failed
              </dt>
              <dd className="since-commit warn">{formatCount(c.failures)}</dd>
            </>
          )}
        </dl>
      </ComponentBox>
    </section>
  );
}

/** "off (silently: acks≠all or retries=0)" → the value and its parenthesis. */
function splitWhy(text: string): [string, string | null] {
  const at = text.indexOf(' (');
  return at < 0 ? [text, null] : [text.slice(0, at), text.slice(at + 1)];
}
