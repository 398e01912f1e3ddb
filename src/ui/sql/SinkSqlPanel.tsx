/**
 * The open "SQL" view of the sink panel: the table sink's statements as a PostgreSQL script
 * (docs/sql.md), computed where the run is (artifact 'sink-sql'), with Copy and Download, and
 * "Run on a real PostgreSQL" (RealDatabaseRun). The script tells what the database did, so while
 * "Predict first" hides the outcome it waits, as the Export menu does. A lazy chunk: the entry
 * carries only the toggle (SinkSqlView), which passes the page's services in (importing them here
 * would split them out of the entry into chunks of their own).
 */
import { useEffect, useState } from 'react';
import { copyText, fileStem } from '../../platform/download';
import { downloadText } from '../../platform/download';
import type { RunView } from '../../views/run/runView';
import type { PageServices } from '../io/PageContext';
import { testIds } from '../testIds';
import { RealDatabaseRun } from './RealDatabaseRun';

/** `hidden`: "Predict first" still waits for the answer. */
export function SinkSqlPanel({
  view,
  page: { artifacts, notices },
  hidden,
}: {
  view: RunView;
  page: Pick<PageServices, 'artifacts' | 'notices'>;
  hidden: boolean;
}) {
  // The script of the scenario it was written for: another run on screen shows none until its own.
  const [script, setScript] = useState<{ of: unknown; text: string } | null>(null);
  const scenario = view.scenario;
  const text = script && script.of === scenario ? script.text : null;
  useEffect(() => {
    if (hidden) return;
    let live = true;
    void artifacts.get(scenario, 'sink-sql').then((r) => {
      if (!live) return;
      if (r.ok) setScript({ of: scenario, text: r.artifact.text });
      else notices.push({ tone: 'error', text: `Sink SQL: ${r.error}` });
    });
    return () => {
      live = false;
    };
  }, [hidden, scenario, artifacts, notices]);
  return hidden ? (
    <p className="muted">The SQL tells what the database did: shown with the outcome.</p>
  ) : text === null ? (
    <p className="muted">Writing the script…</p>
  ) : (
    <div>
      <div>
        <button
          type="button"
          onClick={() =>
            void copyText(text).then((ok) =>
              notices.push({
                tone: ok ? 'info' : 'error',
                text: ok ? 'Sink SQL copied' : 'Sink SQL: the browser refused the copy',
              }),
            )
          }
        >
          Copy
        </button>{' '}
        <button
          type="button"
          onClick={() =>
            downloadText(text, `${fileStem(scenario.name)}.sink.sql`, 'application/sql')
          }
        >
          Download
        </button>{' '}
        <span className="muted">psql -f it on a fresh database (docs/sql.md)</span>
      </div>
      <pre
        data-testid={testIds.sinkSqlScript}
        className="mono"
        style={{ maxHeight: '20em', overflow: 'auto', fontSize: '0.8em' }}
      >
        {text}
      </pre>
      <RealDatabaseRun scenario={scenario} />
    </div>
  );
}
