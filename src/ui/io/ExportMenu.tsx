import { useCallback, useEffect, useRef, useState } from 'react';
import { useDismiss } from '../hooks/useDismiss';
import { moveFocusInList } from '../hooks/moveFocusInList';
import { SPACE_TO_PAGE } from '../hooks/useShortcuts';
import { fileStem } from '../../platform/download';
import { downloadText } from '../../platform/download';
import type { LabState } from '../../store/labStore';
import { useLab, useView } from '../../store/LabContext';
import { scenarioJson } from '../../views/io/export';
import { outgoingScenario } from '../../views/edit/pinExpect';
import type { ArtifactKind } from '../../views/io/exportArtifact';
import { usePredictionGate } from '../library/usePredictionGate';
import { testIds } from '../testIds';
import { usePage } from './PageContext';
import { atlasPinFor, findingsOf } from '../../views/atlas/atlasFindings';

/** The export formats, in menu order. */
const ITEMS: {
  id:
    | 'scenario-json'
    | 'scenario-docs'
    | Extract<ArtifactKind, 'trace-json' | 'table-csv' | 'ledger-csv' | 'markdown' | 'sink-sql'>;
  label: string;
  detail: string;
  suffix: string;
  type: string;
  /** Holds the run's outcome: offered only once "Predict first" shows it. */
  outcome: boolean;
}[] = [
  {
    id: 'scenario-json',
    label: 'Scenario (JSON)',
    detail: 'opens again with Import; a bug report',
    suffix: '.scenario.json',
    type: 'application/json',
    outcome: false,
  },
  {
    // The expect block is the answer, yet a docs page's pin needs it (`delivery-lab check`,
    // docs/cli.md): this one keeps it while the question is shown, and says so.
    id: 'scenario-docs',
    label: 'Scenario for docs CI (answer included)',
    detail: 'with its expect block, to pin an embed with delivery-lab check',
    suffix: '.pinned.scenario.json',
    type: 'application/json',
    outcome: false,
  },
  {
    id: 'trace-json',
    label: 'Trace (JSON)',
    detail: 'every engine entry, decoded (docs/trace-format.md)',
    suffix: '.trace.json',
    type: 'application/json',
    outcome: true,
  },
  {
    id: 'table-csv',
    label: 'Sink table (CSV)',
    detail: 'one line per row ever inserted',
    suffix: '.sink.csv',
    type: 'text/csv;charset=utf-8',
    outcome: true,
  },
  {
    id: 'ledger-csv',
    label: 'Ledger (CSV)',
    detail: 'one line per business event, its fate',
    suffix: '.ledger.csv',
    type: 'text/csv;charset=utf-8',
    outcome: true,
  },
  {
    id: 'sink-sql',
    label: 'Sink SQL',
    detail: "the table sink's statements, a PostgreSQL script (docs/sql.md)",
    suffix: '.sink.sql',
    type: 'application/sql;charset=utf-8',
    outcome: true,
  },
  {
    id: 'markdown',
    label: 'Report (Markdown)',
    detail: 'verdict, explanations, a mermaid diagram',
    suffix: '.report.md',
    type: 'text/markdown;charset=utf-8',
    outcome: true,
  },
];

/**
 * A batch job's files are the batch run's (src/views/batch/batchExport.ts): its trace, its target
 * table by partition, its ledger and the SQL its writes ran, named as such.
 */
const BATCH_WORDS: Partial<
  Record<(typeof ITEMS)[number]['id'], { label: string; detail: string }>
> = {
  'trace-json': { label: 'Batch trace (JSON)', detail: 'every step of the scheduler and the job' },
  'table-csv': {
    label: 'Target table (CSV)',
    detail: 'one line per row, its partition; rows under the wrong partition marked',
  },
  'ledger-csv': { label: 'Ledger (CSV)', detail: 'one line per event, its fate by partition' },
  'sink-sql': {
    label: 'Job SQL',
    detail: "the statements the job's writes ran (INSERT, OVERWRITE … PARTITION, MERGE)",
  },
  // No mermaid diagram: a batch job has no message sequence (src/views/batch/batchMarkdown.ts).
  markdown: {
    label: 'Report (Markdown)',
    detail: 'verdict, the job, its runs, the table by partition, explanations',
  },
};

const selectScenario = (s: LabState) => s.scenario;
const selectPresetRef = (s: LabState) => s.presetRef;
const selectCompare = (s: LabState) => s.compare;
const selectAtlas = (s: LabState) => s.atlas;
const selectAtlasFound = (s: LabState) => s.atlasFound;
const selectStatus = (s: LabState) => s.status;

/**
 * Export: the scenario as written (faults added by clicks included), and — of the run on screen —
 * the trace, the sink table, the ledger, the sink's SQL and the Markdown report, computed from the run where it
 * lives (a worker for big runs). While "Predict first" hides the outcome, only the scenario is
 * offered (without its expect block, or with it "for docs CI", saying so): the others contain the answer (one click on a projector would show it to the
 * room), and the menu says so in their place.
 */
export function ExportMenu() {
  const { artifacts, notices } = usePage();
  const view = useView();
  const scenario = useLab(selectScenario);
  const presetRef = useLab(selectPresetRef);
  const compare = useLab(selectCompare);
  const atlas = useLab(selectAtlas);
  const atlasFound = useLab(selectAtlasFound);
  const status = useLab(selectStatus);
  // A batch job has no stream view: its files come from its batch run, once it is ready.
  const batch = scenario.batch !== undefined;
  const runReady = view !== null || (batch && status === 'ready');
  // While the question waits for its answer (not merely after an edit: see answerWaits).
  const hidden = usePredictionGate().answerWaits;
  const items = hidden ? ITEMS.filter((item) => !item.outcome) : ITEMS;
  const [open, setOpen] = useState(false);
  const closeMenu = useCallback(() => setOpen(false), []);
  const [busy, setBusy] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) box.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);
  // The menu closed (Escape, a format chosen, or a second click on this button): the focus comes
  // back to this button, which keeps it, but Space there plays and pauses as the page promises —
  // without the mark the browser would click the button and open the menu again. Enter still
  // opens it, and so does Space once the focus has left and come back (a Tab to it). As the
  // fault menu's button does (src/ui/pipeline/ComponentBox.tsx).
  const focusButton = useCallback(() => {
    const el = button.current;
    if (!el) return;
    el.dataset.space = SPACE_TO_PAGE;
    el.focus();
  }, []);
  useDismiss(open, closeMenu, box, button, focusButton);

  const run = async (item: (typeof ITEMS)[number]) => {
    setOpen(false);
    // The chosen item goes with the menu: the focus goes back to the button, not to <body>.
    focusButton();
    const stem = fileStem(scenario.name);
    if (item.id === 'scenario-json' || item.id === 'scenario-docs') {
      // Its expect block pins the run on screen, or, while the answer is hidden, is left out: as
      // in a share link and an embed snippet (outgoingScenario) — but for docs CI.
      const forDocs = item.id === 'scenario-docs';
      const out = outgoingScenario(scenario, view, {
        ready: status === 'ready',
        answerHidden: hidden && !forDocs,
      });
      // For docs CI, what the finished atlas of this scenario found: pinned too (`expect.atlas`),
      // as the Embed dialog offers it, when the claim survived every fault it tried; and a pin
      // as written, of the kinds and depth it explored, takes its counts (atlasPinFor).
      const atlasPin = forDocs
        ? atlasPinFor(findingsOf(atlasFound, scenario, atlas), out.expect?.atlas)
        : undefined;
      const file =
        atlasPin && out.expect ? { ...out, expect: { ...out.expect, atlas: atlasPin } } : out;
      downloadText(scenarioJson(file), `${stem}${item.suffix}`, item.type);
      if (forDocs && hidden)
        notices.push({
          tone: 'info',
          text: 'Exported with its expect block, which holds the answer to the prediction: keep the file for delivery-lab check, away from the readers.',
        });
      return;
    }
    if (!runReady) return;
    setBusy(item.label);
    const r = await artifacts.get(view?.scenario ?? scenario, item.id, {
      ...(presetRef ? { preset: presetRef } : {}),
      // The Markdown report carries Compare's lanes (its section), as the page shows them.
      ...(compare && item.id === 'markdown' ? { compare: { base: scenario, spec: compare } } : {}),
      // And the fault atlas's kinds and pairs, once explored (its section), with what it found
      // while the page holds the finished atlas of this scenario and choice.
      ...(atlas.explored && item.id === 'markdown'
        ? { atlas, atlasFound: findingsOf(atlasFound, scenario, atlas) }
        : {}),
    });
    setBusy(null);
    if (r.ok) downloadText(r.artifact.text, `${stem}${item.suffix}`, item.type);
    else notices.push({ tone: 'error', text: `${item.label}: ${r.error}` });
  };

  return (
    <div className="popover-anchor" ref={box}>
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid={testIds.exportButton}
        onClick={() => {
          setOpen(!open);
          if (open) focusButton();
        }}
        onBlur={(e) => delete e.currentTarget.dataset.space}
        disabled={busy !== null}
        title="Download the scenario, the trace, tables or a report"
      >
        {busy ? `Exporting…` : 'Export ▾'}
      </button>
      {open && (
        <div
          className="menu popover"
          role="menu"
          aria-label="Export"
          onKeyDown={(e) => {
            const list = [
              ...(box.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []),
            ];
            moveFocusInList(e, list);
          }}
        >
          <div className="menu-title" aria-hidden="true">
            {status === 'ready' ? 'Of the run on screen' : 'Of the last run shown'}
          </div>
          {items.map((item) => {
            // The table export is the sink's table, else the reader's at the end of the
            // pipeline; a run that ends in a topic or a service has none (it used to say so only
            // after a click).
            const batchWords = batch ? (BATCH_WORDS[item.id] ?? item) : null;
            const table =
              !batch && item.id === 'table-csv' && view
                ? (view.tables.find((t) => t.point === 'sink') ??
                  view.tables[view.primaryTable] ??
                  null)
                : undefined;
            // The SQL script is a SQL table sink's: none for a topic, a service, Delta or files.
            const noTable =
              !batch &&
              (table === null || (item.id === 'sink-sql' && view?.scenario.sink.type !== 'table'));
            const label =
              batchWords?.label ??
              (table && table.point !== 'sink' ? `Reader table: ${table.label} (CSV)` : item.label);
            return (
              <button
                key={item.id}
                type="button"
                role="menuitem"
                data-testid={testIds.exportItem}
                data-format={item.id}
                disabled={(item.outcome && !runReady) || noTable}
                onClick={() => void run(item)}
              >
                {label}
                <small>
                  {noTable
                    ? item.id === 'sink-sql'
                      ? 'this run has no SQL table sink'
                      : 'this run has no table: its sink is a topic or a service'
                    : (batchWords?.detail ?? item.detail)}
                </small>
              </button>
            );
          })}
          {hidden && (
            <div
              role="menuitem"
              aria-disabled="true"
              tabIndex={-1}
              className="menu-note"
              data-testid={testIds.exportHidden}
            >
              Trace, sink table, ledger and report: not offered yet
              <small>
                They contain the answer to the prediction. Show the answer (or play the run to its
                end) to export them.
              </small>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
