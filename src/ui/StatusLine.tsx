import type { LabState } from '../store/labStore';
import { selectIssues } from '../store/labStore';
import { useActions, useLab } from '../store/LabContext';
import { testIds } from './testIds';
import { FontSize } from './TopBar';

const selectStatus = (s: LabState) => s.status;
const selectProgress = (s: LabState) => s.progress;
const selectError = (s: LabState) => s.error;
const selectNotice = (s: LabState) => s.notice;
const selectCanUndo = (s: LabState) => s.past.length > 0;

const PHASES = {
  queued: 'starting the worker',
  simulating: 'simulating',
  deriving: 'preparing the views',
  transferring: 'almost there',
} as const;

/**
 * What the run is doing: simulating (with a cancel button), invalid (each issue names its
 * field), failed, or the last edit's note — plus the text-size control. The panels keep showing
 * the last good run meanwhile.
 */
export function StatusLine() {
  const a = useActions();
  const status = useLab(selectStatus);
  const progress = useLab(selectProgress);
  const error = useLab(selectError);
  const notice = useLab(selectNotice);
  const canUndo = useLab(selectCanUndo);
  const issues = useLab(selectIssues);
  let body;
  let alert = false;
  if (status === 'invalid') {
    alert = true;
    body = (
      <>
        <strong>✕ This scenario is refused</strong>
        <span>— the panels show the last valid run. Undo (Ctrl+Z) or fix:</span>
        <ul data-testid={testIds.issues}>
          {issues.map((i) => (
            <li key={`${i.path}:${i.message}`}>
              <code>{i.path || '(scenario)'}</code>: {i.message}
            </li>
          ))}
        </ul>
      </>
    );
  } else if (status === 'error') {
    alert = true;
    body = (
      <>
        <strong>✕ The engine failed:</strong> <span>{error}</span>
        <span className="muted">
          (a bug in Delivery Lab: Export › Scenario (JSON) saves a file that reproduces it)
        </span>
      </>
    );
  } else if (status === 'running' && progress?.inWorker) {
    body = (
      <>
        <strong>Simulating {progress.events.toLocaleString('en-US')} events…</strong>
        <progress aria-label="Run progress" />
        <span>{PHASES[progress.phase]}</span>
        <button type="button" onClick={a.cancelRun} data-testid={testIds.runCancel}>
          Cancel
        </button>
      </>
    );
  } else if (status === 'cancelled') {
    body = (
      <>
        <strong>Run cancelled.</strong>{' '}
        <span>The panels show the previous run; the scenario above is the one not run.</span>
        <button type="button" onClick={a.rerun}>
          Run it
        </button>
        {/* The edit that asked for the run (an import, a switch) is one Undo away. */}
        {canUndo && (
          <button type="button" onClick={a.undo}>
            Undo (Ctrl+Z)
          </button>
        )}
      </>
    );
  } else {
    body = (
      <span className="muted">
        {notice ?? 'Click a component for its faults, or a moving record or ack to drop it.'}
      </span>
    );
  }
  return (
    <div className={`status-line ${status}`} data-testid={testIds.runStatus} data-status={status}>
      {/* The live region holds the message only: the text-size buttons beside it are no part of
          what is announced. */}
      <div className="status-body" role={alert ? 'alert' : 'status'}>
        {body}
      </div>
      <FontSize />
    </div>
  );
}
