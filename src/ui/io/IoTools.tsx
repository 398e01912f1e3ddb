import { useState } from 'react';
import { useActions } from '../../store/LabContext';
import { EmbedButton } from '../embed/EmbedButton';
import { ShareButton } from '../share/ShareButton';
import { testIds } from '../testIds';
import './io.css';
import './tools.css';
import { ExportMenu } from './ExportMenu';
import { ImportDialog, usePageImport, type Imported } from './ImportDialog';
import type { FolderChoice } from './importFolder';
import { usePage } from './PageContext';
import type { ImportOutcome } from './importScenario';
import { goToAddress } from '../../platform/address';
import { truncate } from '../../views/diagrams/mermaidText';
import { useChallengeUi } from '../challenge/ChallengeContext';
import { claimNotice } from './claimNotice';

/**
 * The top bar's "a run that travels" group: Share, Embed, Export, Import — and import by dropping
 * a file on the page or pasting a scenario.
 */
export function IoTools() {
  const a = useActions();
  const { notices } = usePage();
  const challengeUi = useChallengeUi();
  const [open, setOpen] = useState(false);
  const [refused, setRefused] = useState<Extract<ImportOutcome, { ok: false }> | null>(null);
  const [choice, setChoice] = useState<FolderChoice | null>(null);
  const accept = (r: Extract<ImportOutcome, { ok: true }>) => {
    // A lesson file opens its presenter view (src/ui/lesson), the workspace left as it is.
    if (r.lesson) {
      const lesson = r.lesson;
      void import('../../platform/lessonUrl').then((m) => goToAddress(m.lessonHref(lesson)));
      return;
    }
    // A challenge file opens as a shipped challenge does: its panel, its start as the page.
    if (r.challenge && challengeUi) {
      challengeUi.openFileChallenge(r.challenge, r.input);
      setOpen(false);
      setRefused(null);
      return;
    }
    // A page of its own: Back returns to what was open before (src/ui/io/historySync.ts).
    // It opens at t = 0 and plays: its verdict folds until the end (`replay`).
    a.loadScenario(r.input, {
      presetRef: r.presetRef ?? null,
      opened: true,
      replay: true,
      // Configuration files: the files, once (their scenario's name is the files' names again and
      // the workload's title, quoted in quotes). A scenario: at most 80 characters of its name,
      // an ellipsis where it is cut (a cut name looks whole).
      notice: r.config
        ? `Imported ${r.from} — Undo (Ctrl+Z) goes back.`
        : `Imported “${truncate(r.name, 80)}” from ${r.from} — Undo (Ctrl+Z) goes back.`,
    });
    // The claim the verdict checks came with the workload, not the files (they claim none):
    // said, with the choice of the one the pipeline promises — the claim alone, the files' knobs
    // kept (the top bar's switch would apply its recipe over them).
    const claim = r.config?.claim;
    if (claim) notices.push(claimNotice(a, claim));
    // Configuration files: what was taken from them, key by key, stays on the page.
    if (r.config) notices.push({ tone: 'info', text: r.config.summary, lines: r.config.lines });
    setOpen(false);
    setRefused(null);
    setChoice(null);
  };
  const onOutcome = (r: Imported) => {
    // A folder of several pipelines: the dialog asks which one.
    if ('kind' in r) {
      setRefused(null);
      setChoice(r);
      setOpen(true);
    } else if (r.ok) accept(r);
    else {
      setChoice(null);
      setRefused(r);
      setOpen(true);
    }
  };
  const dragging = usePageImport(onOutcome, !open);
  return (
    <span className="field io-tools" role="group" aria-label="Share and files">
      <ShareButton />
      <EmbedButton />
      <ExportMenu />
      <button
        type="button"
        data-testid={testIds.importButton}
        onClick={() => {
          setRefused(null);
          setChoice(null);
          setOpen(true);
        }}
        title="Open a scenario file or configuration files (.properties, config.yaml), or paste one (or a share or preset link)"
      >
        Import
      </button>
      <ImportDialog
        open={open}
        error={refused}
        setError={setRefused}
        choice={choice}
        setChoice={setChoice}
        onClose={() => setOpen(false)}
        onImport={accept}
      />
      {dragging && (
        <div className="drop-overlay" data-testid={testIds.dropOverlay} aria-hidden="true">
          Drop a scenario file (or configuration files, or their folder) to open it
        </div>
      )}
    </span>
  );
}
