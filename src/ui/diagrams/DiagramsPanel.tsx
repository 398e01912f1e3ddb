import { useEffect, useMemo, useRef, useState } from 'react';
import { copyText, fileStem } from '../../platform/download';
import {
  createMermaidRenderer,
  MERMAID_EXPORT_CONFIG,
  MERMAID_SLIDE_CONFIG,
  pageMermaidConfig,
  slideCanvas,
  svgBlob,
  svgSize,
  svgToPng,
} from '../../platform/mermaid';
import { downloadBlob } from '../../platform/download';
import { fitNotes, slidePng } from '../../platform/slidePng';
import type { LabState } from '../../store/labStore';
import { useLab, useView } from '../../store/LabContext';
import type { Artifact, ArtifactKind } from '../../views/io/exportArtifact';
import { eventIdOf } from '../../views/run/runView';
import { formatMs } from '../../views/run/format';
import { useDarkScheme } from '../hooks/useDarkScheme';
import { usePage } from '../io/PageContext';
import { HiddenOutcome } from '../library/HiddenOutcome';
import { usePredictionGate } from '../library/usePredictionGate';
import { testIds } from '../testIds';
// Its rules (io.css) come with the page's tools (src/ui/io/IoTools.tsx), always on the page; imported
// here too, this lazy chunk's import made the bundler split io.css into a file every embed fetched.

type DiagramTab = 'slide' | 'sequence' | 'event' | 'flow';

const TABS: { id: DiagramTab; label: string }[] = [
  // The anomaly from its cause (src/views/diagrams/anomalyDiagram.ts): the one that fits a slide.
  { id: 'slide', label: 'Slide: the anomaly' },
  { id: 'sequence', label: 'Whole run' },
  { id: 'event', label: 'Selected event' },
  { id: 'flow', label: 'Topology' },
];

const selectSelected = (s: LabState) => s.selected;
const selectName = (s: LabState) => s.scenario.name;

/**
 * Mermaid diagrams of the run on screen: the whole run as a sequence diagram, the selected
 * event's causal chain, the topology flowchart — with the text to copy and the picture to
 * download (SVG, or PNG sized for a slide). Closed by default: mermaid (a large library) is
 * fetched the first time the panel is opened, not with the page.
 */
export function DiagramsPanel() {
  const [open, setOpen] = useState(false);
  return (
    <section
      className="card diagrams"
      aria-label="Diagrams"
      data-testid={testIds.diagrams}
      data-open={open}
    >
      <div className="diagrams-head">
        <h2>Diagrams</h2>
        <span className="muted">
          mermaid sequence diagrams and the topology, to paste or download
        </span>
        <span className="spacer" />
        <button
          type="button"
          aria-expanded={open}
          data-testid={testIds.diagramsToggle}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide diagrams' : 'Show diagrams'}
        </button>
      </div>
      {open && <DiagramsBody />}
    </section>
  );
}

type Shown =
  | { state: 'idle' | 'preparing' | 'rendering' }
  | { state: 'error'; message: string }
  | { state: 'none'; message: string }
  | { state: 'ok'; svg: string };

const selectViewKey = (s: LabState) => s.viewKey;

function DiagramsBody() {
  const view = useView();
  const viewKey = useLab(selectViewKey);
  const selected = useLab(selectSelected);
  const name = useLab(selectName);
  const { artifacts, notices } = usePage();
  const [tab, setTab] = useState<DiagramTab>('sequence');
  // The last result, for the request it answers: anything else on screen is still on its way.
  const [result, setResult] = useState<{ key: string; artifact: Artifact | null; shown: Shown }>({
    key: '',
    artifact: null,
    shown: { state: 'idle' },
  });
  // The picture on the page follows the colour scheme: a change draws it again in the other theme.
  const dark = useDarkScheme();
  const renderer = useMemo(
    () => createMermaidRenderer(undefined, 'dl-mermaid', pageMermaidConfig(dark)),
    [dark],
  );
  // Downloads are drawn again for a file (see MERMAID_EXPORT_CONFIG); the slide's with its large
  // labels and tight margins (MERMAID_SLIDE_CONFIG).
  const exporter = useMemo(
    () => createMermaidRenderer(undefined, 'dl-export', MERMAID_EXPORT_CONFIG),
    [],
  );
  const slideExporter = useMemo(
    () => createMermaidRenderer(undefined, 'dl-slide', MERMAID_SLIDE_CONFIG),
    [],
  );
  const exportSvg = async (): Promise<string> => {
    const out = await (tab === 'slide' ? slideExporter : exporter).render(artifact!.text);
    if (out.status === 'ok') return out.svg;
    throw new Error(out.status === 'error' ? out.message : 'superseded');
  };
  const eventId =
    view && selected >= 0 && selected < view.events.identities
      ? eventIdOf(view.events, selected)
      : null;
  // "Predict first": the whole run and an event's chain draw the outcome; the topology does not.
  // Told, they fold until the run's end as the verdict does (issue 24: the outcome in its time).
  const gate = usePredictionGate();
  const hideRun = gate.finalHidden && tab !== 'flow';
  const kind: ArtifactKind | null = hideRun
    ? null
    : tab === 'sequence'
      ? 'sequence'
      : tab === 'slide'
        ? 'anomaly'
        : tab === 'flow'
          ? 'flow'
          : eventId
            ? `event:${eventId}`
            : null;
  const key = `${viewKey ?? ''}|${kind ?? ''}|${dark ? 'dark' : 'light'}`;

  useEffect(() => {
    if (!view || kind === null) return;
    let live = true;
    const settle = (artifact: Artifact | null, shown: Shown) => {
      if (live) setResult({ key, artifact, shown });
    };
    void artifacts.get(view.scenario, kind).then(async (r) => {
      if (!r.ok) {
        settle(
          null,
          r.missing ? { state: 'none', message: r.error } : { state: 'error', message: r.error },
        );
        return;
      }
      settle(r.artifact, { state: 'rendering' });
      const out = await renderer.render(r.artifact.text);
      if (out.status === 'stale') return;
      settle(
        r.artifact,
        out.status === 'ok'
          ? { state: 'ok', svg: out.svg }
          : { state: 'error', message: out.message },
      );
    });
    return () => {
      live = false;
    };
  }, [view, kind, key, artifacts, renderer]);

  const current = result.key === key;
  const artifact = current ? result.artifact : null;
  const shown: Shown =
    kind === null
      ? {
          state: 'none',
          message: 'Select an event (a log cell, a row, a ledger line) to draw its causal chain.',
        }
      : current
        ? result.shown
        : { state: 'preparing' };

  const stem = `${fileStem(name)}-${tab === 'event' && eventId ? `event-${fileStem(eventId, 'event')}` : tab}`;
  const svg = shown.state === 'ok' ? shown.svg : null;
  const act = (what: string, job: () => Promise<unknown> | void) => async () => {
    try {
      await job();
    } catch (e) {
      notices.push({
        tone: 'error',
        text: `${what} failed: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
  };

  return (
    <div className="diagrams-body">
      <div className="tablist" role="tablist" aria-label="Diagram">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`diagram-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls="diagram-panel"
            tabIndex={tab === t.id ? 0 : -1}
            data-testid={testIds.diagramTab}
            data-tab={t.id}
            onClick={() => setTab(t.id)}
            onKeyDown={(e) => {
              if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
              e.preventDefault();
              // The page's shortcuts use the arrows for stepping: the tab list keeps them.
              e.stopPropagation();
              const k = TABS.findIndex((x) => x.id === tab);
              const next =
                TABS[(k + (e.key === 'ArrowRight' ? 1 : -1) + TABS.length) % TABS.length]!;
              setTab(next.id);
              document.getElementById(`diagram-tab-${next.id}`)?.focus();
            }}
          >
            {t.id === 'event' && eventId
              ? `Event ${eventId.length > 24 ? `${eventId.slice(0, 23)}…` : eventId}`
              : t.label}
          </button>
        ))}
      </div>
      {hideRun ? (
        <div role="tabpanel" id="diagram-panel" aria-labelledby={`diagram-tab-${tab}`}>
          <HiddenOutcome gate={gate} what="diagrams" />
        </div>
      ) : (
        <div role="tabpanel" id="diagram-panel" aria-labelledby={`diagram-tab-${tab}`}>
          <div className="diagram-tools">
            <button
              type="button"
              disabled={!artifact}
              data-testid={testIds.diagramCopy}
              onClick={act('Copy', async () => {
                const ok = await copyText(artifact!.text);
                notices.push(
                  ok
                    ? { tone: 'info', text: 'The mermaid text is on the clipboard.' }
                    : {
                        tone: 'warn',
                        text: 'The clipboard refused: select the text under "Mermaid text" and copy it.',
                      },
                );
              })}
            >
              Copy mermaid text
            </button>
            <button
              type="button"
              disabled={!svg}
              data-testid={testIds.diagramSvgDownload}
              onClick={act('The SVG download', async () => {
                const picture = await exportSvg();
                // The slide's notes widened to their large text (./slidePng.ts), as in its PNG.
                downloadBlob(svgBlob(tab === 'slide' ? fitNotes(picture) : picture), `${stem}.svg`);
              })}
            >
              Download SVG
            </button>
            <button
              type="button"
              disabled={!svg}
              data-testid={testIds.diagramPngDownload}
              title={
                tab === 'slide'
                  ? '1920 × 1080, large labels, for a projected slide'
                  : "1920 × 1080 for a slide; a tall diagram keeps a slide's width and gets longer"
              }
              onClick={act('The PNG download', async () => {
                const picture = await exportSvg();
                downloadBlob(
                  tab === 'slide'
                    ? await slidePng(picture)
                    : await svgToPng(picture, slideCanvas(svgSize(picture))),
                  `${stem}.png`,
                );
              })}
            >
              Download PNG (slide)
            </button>
            <DiagramStatus shown={shown} artifact={artifact} />
          </div>
          <DiagramSvg svg={svg} />
          {artifact && (
            <details className="diagram-text">
              <summary>Mermaid text</summary>
              <pre data-testid={testIds.diagramText} tabIndex={0}>
                {artifact.text}
              </pre>
            </details>
          )}
        </div>
      )}
    </div>
  );
}

function DiagramStatus({ shown, artifact }: { shown: Shown; artifact: Artifact | null }) {
  let text: string;
  switch (shown.state) {
    case 'idle':
    case 'preparing':
      text = 'Preparing the diagram…';
      break;
    case 'rendering':
      text = 'Drawing…';
      break;
    case 'none':
      text = shown.message;
      break;
    case 'error':
      text = `The diagram could not be drawn: ${shown.message}`;
      break;
    case 'ok':
      text = artifact?.capped
        ? `Showing ${artifact.capped.shown} of ${artifact.capped.total} steps${
            artifact.capped.fromMs !== undefined
              ? `, from ${formatMs(artifact.capped.fromMs)} (just before the first fault)`
              : ''
          } — the trace export has them all.`
        : '';
  }
  return (
    <span
      className={`diagram-status${shown.state === 'error' ? ' error' : ''}`}
      data-testid={testIds.diagramStatus}
      data-state={shown.state}
      role={shown.state === 'error' ? 'alert' : 'status'}
    >
      {text}
    </span>
  );
}

/**
 * The rendered SVG. The one place the page sets markup from a string: mermaid's output, rendered
 * with `securityLevel: 'strict'` (its labels sanitised by DOMPurify) from text in which every
 * scenario string is entity-encoded (src/views/diagrams/mermaidText.ts).
 */
function DiagramSvg({ svg }: { svg: string | null }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.innerHTML = svg ?? '';
  }, [svg]);
  return <div className="diagram-svg" ref={ref} data-testid={testIds.diagramSvg} />;
}
