import { Fragment } from 'react';

/**
 * Text in which a configuration name (`enable.idempotence=false`,
 * `execution.checkpointing.interval`) may wrap after a dot or an equals sign. In a narrow column
 * the browser otherwise breaks such a long word wherever it overflows — mid-name, or before the
 * comma that follows it.
 */
export function Breakable({ text }: { text: string }) {
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
