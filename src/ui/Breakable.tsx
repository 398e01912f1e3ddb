import { Fragment } from 'react';
import { BreakableUrl } from './BreakableUrl';

/** A record or component id with a hyphen before its number: p-20, broker-1, payments-0. */
const HYPHENATED_ID = /(?<![\w-])[A-Za-z]\w*-\d+(?!\w)/;

/**
 * A date as the batch stories write their logical dates (ISO 8601, src/engine/batch/calendar.ts):
 * 2024-03-10, an hourly period 2024-03-10T05, a time 2024-03-10T05:00.
 */
const DATE = /(?<![\w-])\d{4}-\d{2}-\d{2}(?:T\d{2}(?::\d{2})?)?(?![\w-])/;

/** The words kept on one line, each captured so that `split` keeps it: an id, then a date. */
const UNBROKEN = new RegExp(`(${HYPHENATED_ID.source})|(${DATE.source})`);

/**
 * A source's address in an explanation ("… (https://kafka.apache.org/documentation/#…)"): a link
 * that wraps after its slashes, not at every dot of its host as a configuration name does (a
 * teacher's report: the phone's revealed why showed its sources as plain text broken at dots). A
 * sentence's closing punctuation after it is not part of it.
 */
const SOURCE = /(https?:\/\/[^\s)]+?)(?=[.,;:!?]?(?:[\s)]|$))/;

/**
 * Text in which a configuration name (`enable.idempotence=false`,
 * `execution.checkpointing.interval`) may wrap before a dot or after an equals sign. In a narrow column
 * the browser otherwise breaks such a long word wherever it overflows — mid-name, or before the
 * comma that follows it. An id never wraps at its hyphen ("p-|20" read as two words: the README's
 * screenshot): it is kept whole (`.event-id`, white-space: nowrap). Nor does a date ("2024-03-|10"
 * in the batch question, projector mode): `.date` is nowrap too.
 */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(SOURCE);
  if (parts.length === 1) return <Unbroken text={text} />;
  return (
    <>
      {parts.map((p, i) =>
        i % 2 === 0 ? (
          <Unbroken key={i} text={p} />
        ) : (
          <a key={i} href={p} target="_blank" rel="noreferrer">
            <BreakableUrl url={p} />
          </a>
        ),
      )}
    </>
  );
}

/** Text without addresses: its ids and dates kept whole, its configuration names breakable. */
function Unbroken({ text }: { text: string }) {
  // split() with two groups yields [text, id, date, text, id, date, …]: the unmatched one undefined.
  const pieces = text.split(UNBROKEN);
  const out = [];
  for (let k = 0; k < pieces.length; k += 3) {
    out.push(
      <Fragment key={k}>
        <ConfigNames text={pieces[k]!} />
      </Fragment>,
    );
    const id = pieces[k + 1];
    const date = pieces[k + 2];
    if (id !== undefined)
      out.push(
        <span key={k + 1} className="event-id">
          {id}
        </span>,
      );
    if (date !== undefined)
      out.push(
        <span key={k + 2} className="date">
          {date}
        </span>,
      );
  }
  return <>{out}</>;
}

/**
 * `text` with a <wbr> before each dot and after each equals sign inside a configuration name:
 * "request" / ".timeout.ms", as a stage card breaks "transactional" / ".id" (SettingName). A line
 * ending "request." read as a full stop from the back row ("so after request." / "timeout.ms").
 */
function ConfigNames({ text }: { text: string }) {
  const parts = text.split(/(?<=[A-Za-z_])(?=\.[A-Za-z_])|(?<=[A-Za-z_]=)(?=[A-Za-z_])/);
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {p}
        </Fragment>
      ))}
    </>
  );
}
