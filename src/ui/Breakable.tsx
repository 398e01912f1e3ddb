import { Fragment } from 'react';

/** A record or component id with a hyphen before its number: p-20, broker-1, payments-0. */
const HYPHENATED_ID = /((?<![\w-])[A-Za-z][\w]*-\d+(?![\w]))/;

/**
 * Text in which a configuration name (`enable.idempotence=false`,
 * `execution.checkpointing.interval`) may wrap after a dot or an equals sign. In a narrow column
 * the browser otherwise breaks such a long word wherever it overflows — mid-name, or before the
 * comma that follows it. An id never wraps at its hyphen ("p-|20" read as two words: the README's
 * screenshot): it is kept whole (`.event-id`, white-space: nowrap).
 */
export function Breakable({ text }: { text: string }) {
  return (
    <>
      {text.split(HYPHENATED_ID).map((piece, k) =>
        k % 2 === 1 ? (
          <span key={k} className="event-id">
            {piece}
          </span>
        ) : (
          <Fragment key={k}>
            <ConfigNames text={piece} />
          </Fragment>
        ),
      )}
    </>
  );
}

/** `text` with a <wbr> after each dot or equals sign inside a configuration name. */
function ConfigNames({ text }: { text: string }) {
  const parts = text.split(/(?<=[A-Za-z_][.=])(?=[A-Za-z_])/);
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
