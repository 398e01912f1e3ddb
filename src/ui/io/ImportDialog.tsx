import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { SHARE_PARAM, SHARE_VERSION } from '../../views/io/shareCodec';
import { testIds } from '../testIds';
import type { ReadableFile } from '../../views/io/scenarioImport';
import type { ImportOutcome } from './importScenario';
import type { FolderChoice } from './importFolder';
import { folderOfDrop, folderOfPicked } from '../../platform/folderFiles';

// The importer (lessons, configuration files, every preset to recognise one, zod) loads when
// something is imported, not with the page (issues #24, #31).
const importer = () => import('./importScenario');
const importFiles = async (files: readonly ReadableFile[]) => (await importer()).importFiles(files);
const importPasted = async (text: string) => (await importer()).importPasted(text);
const folderImporter = () => import('./importFolder');

/** What Import brings: a scenario, lesson or configuration (or why not), or a folder's choice. */
export type Imported = ImportOutcome | FolderChoice;

const isChoice = (r: Imported): r is FolderChoice => 'kind' in r;

/**
 * What a drop brings, or null for none of these: a folder (walked now — its entries live only
 * while the drop event does), or files.
 */
function importDrop(dt: DataTransfer): Promise<Imported> | null {
  const folder = folderOfDrop(dt);
  if (folder)
    return folder.then(async (f) =>
      f.ok
        ? (await folderImporter()).importFolder(f.name, f.files, f.passedOver)
        : {
            ok: false,
            from: 'the folder',
            heading: 'Not imported: the folder was not read.',
            lines: [f.line],
          },
    );
  const files = [...dt.files];
  return files.length > 0 ? importFiles(files) : null;
}

/**
 * The paste box's example: scenario JSON, or a share link as the page makes them now — its
 * parameter and format version from views/shareLink, so it never shows an old `#s=1.` again.
 */
export const IMPORT_PLACEHOLDER = `{ "version": 1, … }   or   https://…#${SHARE_PARAM}=${SHARE_VERSION}.…`;

/**
 * The import dialog: a file picker, a drop zone and a paste box (scenario JSON, a share link or a page link with `?preset=`).
 * An invalid input is refused with one line per issue, each naming its field path; the workspace
 * is only replaced (as one undoable edit) by a valid scenario.
 */
export function ImportDialog({
  open,
  error,
  setError,
  choice,
  setChoice,
  onClose,
  onImport,
}: {
  open: boolean;
  /** A folder's pipelines to choose among (several dbt models or DAGs), when one was given. */
  choice: FolderChoice | null;
  setChoice: (choice: FolderChoice | null) => void;
  /** The refusal shown (this dialog's, or a drop's or paste's on the page). */
  error: Extract<ImportOutcome, { ok: false }> | null;
  setError: (error: Extract<ImportOutcome, { ok: false }> | null) => void;
  onClose: () => void;
  /** Called with a valid import; returns nothing (the caller loads it and closes). */
  onImport: (outcome: Extract<ImportOutcome, { ok: true }>) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const choiceRef = useRef<HTMLUListElement>(null);
  // A folder's choice takes the focus: its first pipeline, one Tab from the next.
  useEffect(() => {
    if (choice) choiceRef.current?.querySelector('button')?.focus();
  }, [choice]);
  const [text, setText] = useState('');
  const [over, setOver] = useState(false);
  const fileId = useId();
  const folderId = useId();
  const pasteId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal?.();
    if (!open && d.open) d.close();
  }, [open]);

  const settle = (r: Imported) => {
    if (isChoice(r)) {
      setError(null);
      setChoice(r);
    } else if (r.ok) {
      setError(null);
      setChoice(null);
      setText('');
      onImport(r);
    } else {
      setChoice(null);
      setError(r);
    }
  };
  const onDrop = async (e: DragEvent) => {
    e.preventDefault();
    e.stopPropagation();
    setOver(false);
    settle(
      await (importDrop(e.dataTransfer) ?? importPasted(e.dataTransfer.getData('text/plain'))),
    );
  };

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={`${fileId}-title`}
      data-testid={testIds.importDialog}
      onClose={onClose}
      onCancel={onClose}
    >
      <h2 id={`${fileId}-title`}>Import a scenario, a lesson or your configuration</h2>
      <p className="muted">
        A scenario file (JSON, as Export writes it), a lesson file (it opens in the presenter view),
        a challenge file (it opens as a challenge, its link shareable), a share link or a preset
        link — or your real configuration: Kafka client <code>.properties</code>, a Flink{' '}
        <code>config.yaml</code> / <code>flink-conf.yaml</code>, a Spark query&apos;s options, your
        sink&apos;s <code>INSERT … ON CONFLICT</code> or <code>MERGE</code> (a <code>.sql</code>{' '}
        file; several files at once) — or a batch job&apos;s: a dbt model&apos;s <code>.sql</code>,
        its properties YAML or <code>dbt_project.yml</code>, an Airflow DAG&apos;s <code>.py</code>.
        The current scenario stays until a valid one is imported — and Undo brings it back.
      </p>
      <div
        className={`drop-zone${over ? ' over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => void onDrop(e)}
      >
        <label htmlFor={fileId}>
          Choose one file or several, or drop them (or a folder) here:{' '}
        </label>
        <input
          id={fileId}
          type="file"
          accept=".json,application/json,text/plain,.properties,.yaml,.yml,.sql,.py"
          multiple
          data-testid={testIds.importFile}
          onChange={async (e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            if (files.length > 0) settle(await importFiles(files));
          }}
        />
        <label htmlFor={folderId} className="folder-pick">
          …or a folder (a dbt project, an Airflow dags/ folder, a service&apos;s config/):{' '}
        </label>
        <input
          id={folderId}
          type="file"
          // The picker for a folder: its files come with their paths (not in React's typings).
          ref={(el) => el?.setAttribute('webkitdirectory', '')}
          data-testid={testIds.importFolder}
          onChange={async (e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            if (files.length === 0) return;
            const folder = folderOfPicked(files);
            settle(await (await folderImporter()).importFolder(folder.name, folder.files));
          }}
        />
      </div>
      {choice && (
        <section
          className="folder-choice"
          aria-labelledby={`${folderId}-choice`}
          data-testid={testIds.importFolderChoice}
        >
          <h3 id={`${folderId}-choice`}>
            The folder “{choice.folder}” holds {choice.what}: which one runs?
          </h3>
          <ul ref={choiceRef}>
            {choice.options.map((o) => (
              <li key={o.label}>
                <button
                  type="button"
                  onClick={() =>
                    void folderImporter()
                      .then((m) => m.importFolderOption(choice.folder, o, choice.passedOver))
                      .then(settle)
                  }
                >
                  {o.label}
                </button>
              </li>
            ))}
          </ul>
          {choice.passedOver.length > 0 && (
            <p className="muted">Passed over: {choice.passedOver.join(', ')}</p>
          )}
        </section>
      )}
      <label htmlFor={pasteId} className="label">
        …or paste scenario JSON, a share link, a preset link or your configuration
        (producer.properties, config.yaml lines, an INSERT or MERGE):
      </label>
      <textarea
        id={pasteId}
        rows={6}
        value={text}
        spellCheck={false}
        data-testid={testIds.importPaste}
        onChange={(e) => setText(e.target.value)}
        placeholder={IMPORT_PLACEHOLDER}
      />
      {error && (
        <div className="import-errors" role="alert" data-testid={testIds.importErrors}>
          <strong>
            {error.heading ??
              `Not imported: ${error.from} is not a valid ${error.config ? 'configuration' : 'scenario'}.`}
          </strong>
          <ul>
            {error.lines.slice(0, 12).map((l, k) => (
              <li key={k}>
                <code>{l.slice(0, l.indexOf(': ') >= 0 ? l.indexOf(': ') : 0)}</code>
                {l.indexOf(': ') >= 0 ? l.slice(l.indexOf(': ')) : l}
              </li>
            ))}
            {error.lines.length > 12 && <li>… and {error.lines.length - 12} more</li>}
          </ul>
          <span className="muted">Your current scenario is unchanged.</span>
        </div>
      )}
      <div className="dialog-buttons">
        <button
          type="button"
          className="primary"
          data-testid={testIds.importSubmit}
          disabled={text.trim() === ''}
          onClick={() => void importPasted(text).then(settle)}
        >
          Import the pasted text
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}

/**
 * Import by dropping a file anywhere on the page, or pasting scenario JSON or a share link while
 * no text field has the focus. Returns whether a file is being dragged over the page (for the
 * overlay).
 */
export function usePageImport(onOutcome: (r: Imported) => void, enabled: boolean): boolean {
  const [dragging, setDragging] = useState(false);
  const cb = useRef(onOutcome);
  useEffect(() => {
    cb.current = onOutcome;
  });
  useEffect(() => {
    if (!enabled) return;
    const hasFiles = (e: DragEvent | globalThis.DragEvent) =>
      [...(e.dataTransfer?.types ?? [])].includes('Files');
    const onOver = (e: globalThis.DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(true);
    };
    const onLeave = (e: globalThis.DragEvent) => {
      // Leaving the window (no related target), not moving between children.
      if (e.relatedTarget === null) setDragging(false);
    };
    const onDrop = (e: globalThis.DragEvent) => {
      setDragging(false);
      if (e.defaultPrevented || !e.dataTransfer) return; // the dialog's own drop zone took it
      const dropped = importDrop(e.dataTransfer);
      if (dropped === null) return;
      e.preventDefault();
      void dropped.then((r) => cb.current(r));
    };
    const onPaste = (e: ClipboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (
        t &&
        (t.closest('input, textarea, select, [contenteditable="true"]') || t.closest('dialog'))
      )
        return;
      const text = e.clipboardData?.getData('text/plain') ?? '';
      // Only what looks like a scenario or a link: a stray paste should not raise an error. (The
      // target is no field, so the paste has no default to prevent.)
      void importer().then(async (m) => {
        if (m.looksImportable(text)) cb.current(await m.importPasted(text));
      });
    };
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    window.addEventListener('paste', onPaste);
    return () => {
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
      window.removeEventListener('paste', onPaste);
    };
  }, [enabled]);
  return dragging;
}
