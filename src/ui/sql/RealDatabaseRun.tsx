/**
 * "Run on a real PostgreSQL" in the sink's SQL view (docs/sql.md): PGlite loaded on request in a
 * worker (src/platform/realDatabase.ts), the script run there, and PostgreSQL's final table shown
 * beside the engine's — ✓ when they agree, else each difference. Cancel stops the worker.
 */
import { useEffect, useRef, useState } from 'react';
import type { TableRow } from '../../engine/sql/table';
import {
  runOnRealDatabase,
  type DatabaseJob,
  type PgliteProgress,
} from '../../platform/realDatabase';
import { PGLITE_DOWNLOAD_MB, type DatabaseCheck } from '../../views/io/sqlOnDatabase';
import { testIds } from '../testIds';

type State =
  | { kind: 'idle' }
  | { kind: 'running'; progress: PgliteProgress | null }
  | { kind: 'done'; result: DatabaseCheck; ms: number | undefined };

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

function progressText(p: PgliteProgress | null): string {
  if (p === null) return 'Loading the PostgreSQL worker…';
  if (p.phase === 'download')
    return `Downloading PGlite: ${mb(p.loaded)}${p.total ? ` of ${mb(p.total)}` : ''} MB…`;
  return p.phase === 'start' ? 'Starting PostgreSQL…' : 'Running the script…';
}

function RowsTable({ caption, rows }: { caption: string; rows: readonly TableRow[] }) {
  return (
    <table className="mono" style={{ fontSize: '0.8em' }}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th>id</th>
          <th>amount</th>
          <th>src</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i}>
            <td>{r.id}</td>
            <td>{r.amount}</td>
            <td>{r.src ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The button, then progress with Cancel, then the two tables. Resets when the scenario changes. */
export function RealDatabaseRun({ scenario }: { scenario: unknown }) {
  // The state of the scenario it was made for: another scenario on screen starts idle.
  const [made, setState] = useState<{ of: unknown; state: State }>({
    of: scenario,
    state: { kind: 'idle' },
  });
  const state: State = made.of === scenario ? made.state : { kind: 'idle' };
  const job = useRef<DatabaseJob | null>(null);
  // A job still running when the scenario changes (or the view closes) is stopped.
  useEffect(() => () => job.current?.cancel(), [scenario]);
  const start = () => {
    const set = (s: State) => setState({ of: scenario, state: s });
    set({ kind: 'running', progress: null });
    const j = runOnRealDatabase(scenario, (progress) =>
      setState((m) =>
        m.of === scenario && m.state.kind === 'running'
          ? { of: scenario, state: { kind: 'running', progress } }
          : m,
      ),
    );
    job.current = j;
    void j.promise.then((result) => {
      if (job.current !== j) return;
      job.current = null;
      set(
        result.ok || result.error !== 'cancelled'
          ? { kind: 'done', result, ms: result.ms }
          : { kind: 'idle' },
      );
    });
  };
  if (state.kind === 'running')
    return (
      <p data-testid={testIds.sinkSqlRunProgress} role="status">
        {progressText(state.progress)}{' '}
        <button type="button" onClick={() => job.current?.cancel()}>
          Cancel
        </button>
      </p>
    );
  const result = state.kind === 'done' ? state.result : null;
  return (
    <div>
      <button type="button" data-testid={testIds.sinkSqlRun} onClick={start}>
        {result ? 'Run again on PostgreSQL' : 'Run on a real PostgreSQL'}
      </button>{' '}
      {!result && (
        <span className="muted">
          PGlite (PostgreSQL in WebAssembly), a {PGLITE_DOWNLOAD_MB} MB download, in this tab
        </span>
      )}
      {result && (
        <div data-testid={testIds.sinkSqlRunResult} data-ok={result.ok && result.conformance.ok}>
          {!result.ok ? (
            <p role="alert">PostgreSQL could not run the script: {result.error}</p>
          ) : (
            <>
              <p>
                {result.conformance.ok
                  ? `✓ PostgreSQL agrees: the same ${result.conformance.real.length} row(s) as the engine, and every statement's outcome`
                  : '✗ PostgreSQL differs from the engine:'}
                {state.kind === 'done' && state.ms !== undefined && (
                  <span className="muted"> ({Math.round(state.ms)} ms in PGlite)</span>
                )}
              </p>
              {!result.conformance.ok && (
                <ul>
                  {result.conformance.differences.map((d, i) => (
                    <li key={i}>{d}</li>
                  ))}
                </ul>
              )}
              <div style={{ display: 'flex', gap: '1.5em', flexWrap: 'wrap' }}>
                <RowsTable caption="The engine's table" rows={result.conformance.engine} />
                <RowsTable caption="PostgreSQL's table" rows={result.conformance.real} />
              </div>
            </>
          )}
        </div>
      )}
    </div>
  );
}
