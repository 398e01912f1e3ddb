/**
 * The Export menu while "Predict first" hides the outcome: the trace, the sink table, the ledger
 * and the report contain the answer, so only the scenario is offered, and the menu says why.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ArtifactClient } from '../../platform/runClient';
import type { Lab } from '../../store/labStore';
import { LabProvider } from '../../store/LabContext';
import { useShortcuts } from '../hooks/useShortcuts';
import { LibraryProvider } from '../library/LibraryContext';
import { usePredictions, type Predictions } from '../library/PredictionContext';
import { Explanations } from '../panels/Explanations';
import { testIds } from '../testIds';
import { presetLab } from '../testLab';
import { ExportMenu } from './ExportMenu';
import { createNotices } from './notices';
import { PageProvider } from './PageContext';

/** The page's keyboard shortcuts (Space plays and pauses), as the page installs them. */
function Shortcuts({ lab }: { lab: Lab }) {
  useShortcuts(lab);
  return null;
}

/** The predictions of the last mount (to lock one in, as the story panel would). */
let predictions: Predictions | null = null;
function PredictionsProbe() {
  const p = usePredictions();
  useEffect(() => {
    predictions = p;
  }, [p]);
  return null;
}

/**
 * Lock in a prediction for the default preset's question (its key: the preset's id): Play waits
 * for one (library/revealGuard.ts), and the outcome stays hidden, as while a room has predicted.
 */
const lockIn = () =>
  act(() => predictions!.updatePrediction('at-least-once', { text: '24', locked: true }));

/** The artifact client's `get` of the last mount. */
let artifactsGet = vi.fn();

async function mount(ref = 'at-least-once'): Promise<Lab> {
  const lab = presetLab(ref);
  artifactsGet = vi.fn().mockResolvedValue({ ok: false, error: 'not in this test' });
  const artifacts: ArtifactClient = { get: artifactsGet, dispose: () => {} };
  render(
    <LabProvider lab={lab}>
      <Shortcuts lab={lab} />
      <PageProvider page={{ notices: createNotices(), artifacts, shareLink: null }}>
        <LibraryProvider>
          <Explanations />
          <ExportMenu />
          <PredictionsProbe />
        </LibraryProvider>
      </PageProvider>
    </LabProvider>,
  );
  await act(() => lab.actions.settled());
  return lab;
}

const formats = () =>
  screen.queryAllByTestId(testIds.exportItem).map((b) => b.getAttribute('data-format'));

/** The outcome shown (a variant the preset's question is not about shows it at once). */
function showOutcome(): void {
  const show = screen.queryByTestId(testIds.outcomeShow);
  if (show) fireEvent.click(show);
}

/** Export the Markdown report: the artifact request's arguments. */
async function markdown() {
  showOutcome();
  fireEvent.click(screen.getByTestId(testIds.exportButton));
  fireEvent.click(
    screen
      .getAllByTestId(testIds.exportItem)
      .find((b) => b.getAttribute('data-format') === 'markdown')!,
  );
  await act(() => Promise.resolve());
  return artifactsGet.mock.lastCall;
}

describe('ExportMenu and "Predict first"', () => {
  afterEach(cleanup);

  it('offers only the scenario while the outcome is hidden, and says why', async () => {
    await mount();
    fireEvent.click(screen.getByTestId(testIds.exportButton));
    expect(formats()).toEqual(['scenario-json', 'scenario-docs']);
    const note = screen.getByTestId(testIds.exportHidden);
    expect(note.textContent).toContain('contain the answer');
    expect(note.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(screen.getByTestId(testIds.exportButton));

    // The outcome shown: every export, and no note.
    fireEvent.click(screen.getByTestId(testIds.outcomeShow));
    fireEvent.click(screen.getByTestId(testIds.exportButton));
    expect(formats()).toEqual([
      'scenario-json',
      'scenario-docs',
      'trace-json',
      'table-csv',
      'ledger-csv',
      'sink-sql',
      'markdown',
    ]);
    expect(screen.queryByTestId(testIds.exportHidden)).toBeNull();
  });
});

describe('ExportMenu: the scenario for docs CI', () => {
  afterEach(cleanup);

  /** The file an export item downloads: its name and its scenario. */
  const exportAs = async (format: string) => {
    const url = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    let file = '';
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      file = this.download;
    });
    fireEvent.click(screen.getByTestId(testIds.exportButton));
    const item = screen
      .getAllByTestId(testIds.exportItem)
      .find((b) => b.getAttribute('data-format') === format)!;
    fireEvent.click(item);
    const blob = url.mock.lastCall![0] as Blob;
    vi.restoreAllMocks();
    return { file, scenario: JSON.parse(await blob.text()) as { expect?: unknown } };
  };

  it('keeps the expect block while the question is shown, where the plain export leaves it out', async () => {
    // at-least-once/default (src/scenarios/library): its "Predict first" question is asked on
    // opening, and its expect block — 24 rows for 20 events, 4 duplicates (the batch replayed
    // after the crash re-applied) — is the answer.
    await mount();
    expect((await exportAs('scenario-json')).scenario.expect).toBeUndefined();
    const docs = await exportAs('scenario-docs');
    expect(docs.file).toMatch(/\.pinned\.scenario\.json$/);
    expect(docs.scenario.expect).toMatchObject({ totals: { rows: 24, duplicates: 4 } });
  });

  it('pins what the finished atlas found when the claim survived it, the plain export does not', async () => {
    const lab = await mount('effectively-once');
    act(() => lab.actions.setAtlas({ pairs: true, explored: true }, 'Fault atlas: pairs'));
    await act(() => lab.actions.settled());
    const found = {
      input: lab.app.getState().scenario,
      choice: { pairs: true },
      summary: 'held',
      counterexample: null,
      survives: true,
    };
    act(() => lab.actions.noteAtlasExplored(found));
    showOutcome();
    const docs = await exportAs('scenario-docs');
    expect(docs.scenario.expect).toMatchObject({ atlas: { depth: 2, breaks: 0 } });
    expect((await exportAs('scenario-json')).scenario.expect).not.toHaveProperty('atlas');
    // A finding that the claim broke is nothing to pin (the CLI's --explore counts the breaks).
    act(() => lab.actions.noteAtlasExplored({ ...found, survives: false }));
    expect((await exportAs('scenario-docs')).scenario.expect).not.toHaveProperty('atlas');
  });

  it('re-pins an atlas pin as written from the atlas the page just ran, not the pin it showed false', async () => {
    // An imported scenario pinned to survive every pair of faults ("breaks": 0); the page's
    // atlas of the same choice then finds 248 pairs: 200 held, 48 duplicates. The docs export
    // said "breaks": 0 all the same, and delivery-lab check failed on the file made for it.
    const lab = await mount('effectively-once');
    const written = lab.app.getState().scenario;
    act(() =>
      lab.actions.loadScenario({
        ...written,
        expect: { ...written.expect, atlas: { depth: 2, breaks: 0, outcomes: { held: 248 } } },
      }),
    );
    act(() => lab.actions.setAtlas({ pairs: true, explored: true }, 'Fault atlas: pairs'));
    await act(() => lab.actions.settled());
    act(() =>
      lab.actions.noteAtlasExplored({
        input: lab.app.getState().scenario,
        choice: { pairs: true },
        summary: '248 pairs of placements: 200 held, 48 duplicate',
        counterexample: { words: 'a lost ack' },
        survives: false,
        outcomes: { held: 200, duplicates: 48, losses: 0, both: 0, stuck: 0 },
      }),
    );
    showOutcome();
    expect((await exportAs('scenario-docs')).scenario.expect).toMatchObject({
      atlas: { depth: 2, breaks: 48, outcomes: { held: 200 } },
    });
    // Single faults explored instead: another atlas than the pin's, left as written.
    act(() => lab.actions.setAtlas({ explored: true }, 'Fault atlas: single faults'));
    act(() =>
      lab.actions.noteAtlasExplored({
        input: lab.app.getState().scenario,
        choice: {},
        summary: 's',
        counterexample: { words: 'a lost ack' },
        survives: false,
        outcomes: { held: 200, duplicates: 48, losses: 0, both: 0, stuck: 0 },
      }),
    );
    expect((await exportAs('scenario-docs')).scenario.expect).toMatchObject({
      atlas: { depth: 2, breaks: 0, outcomes: { held: 248 } },
    });
  });
});

describe('ExportMenu: the table export', () => {
  afterEach(cleanup);

  const tableItem = () =>
    screen
      .getAllByTestId(testIds.exportItem)
      .find((b) => b.getAttribute('data-format') === 'table-csv')!;

  it("is the reader's table when the sink is a topic, and off when the run ends in a service", async () => {
    const lab = await mount('flink-checkpoint-replay/2pc-read-committed');
    showOutcome();
    fireEvent.click(screen.getByTestId(testIds.exportButton));
    expect(tableItem().textContent).toContain('Reader table: rc (read_committed)');
    expect((tableItem() as HTMLButtonElement).disabled).toBe(false);
    cleanup();
    await act(() => lab.actions.settled());

    await mount('card-charge-idempotency/stable-key');
    showOutcome();
    fireEvent.click(screen.getByTestId(testIds.exportButton));
    expect((tableItem() as HTMLButtonElement).disabled).toBe(true);
    expect(tableItem().textContent).toContain('this run has no table');
  });
});

describe('ExportMenu: a batch job', () => {
  afterEach(cleanup);

  it("offers the batch run's files, named as such, and asks for them of the scenario (no stream view)", async () => {
    const lab = await mount('clear-rerun-window/pinned-append');
    const show = screen.queryByTestId(testIds.outcomeShow);
    if (show) fireEvent.click(show);
    fireEvent.click(screen.getByTestId(testIds.exportButton));
    const items = screen.getAllByTestId(testIds.exportItem);
    const item = (f: string) => items.find((b) => b.getAttribute('data-format') === f)!;
    expect(item('table-csv').textContent).toContain('Target table (CSV)');
    expect(item('sink-sql').textContent).toContain('Job SQL');
    expect(item('trace-json').textContent).toContain('Batch trace (JSON)');
    // The batch report has no diagram (docs/page.md: "the diagrams are a stream's only").
    expect(item('markdown').textContent).toBe(
      'Report (Markdown)verdict, the job, its runs, the table by partition, explanations',
    );
    // Every item is offered: all 7 (scenario, docs, trace, table, ledger, SQL, report).
    expect(items.filter((b) => !(b as HTMLButtonElement).disabled)).toHaveLength(7);
    fireEvent.click(item('sink-sql'));
    await act(() => Promise.resolve());
    expect(artifactsGet).toHaveBeenCalledTimes(1);
    expect(artifactsGet.mock.calls[0]![0]).toBe(lab.app.getState().scenario);
    expect(artifactsGet.mock.calls[0]![1]).toBe('sink-sql');
  });
});

describe('ExportMenu: once closed, Space on its button plays and pauses (as the fault menu’s)', () => {
  afterEach(cleanup);

  const button = () => screen.getByTestId(testIds.exportButton);
  const menu = () => screen.queryByRole('menu', { name: 'Export' });
  const playing = (lab: Lab) => lab.app.getState().playing;

  it('after Escape the focus is back on the button, and Space there toggles play (on, off), the menu shut', async () => {
    const lab = await mount();
    lockIn();
    fireEvent.click(button());
    const item = screen.getAllByTestId(testIds.exportItem)[0]!;
    expect(document.activeElement).toBe(item);
    fireEvent.keyDown(item, { key: 'Escape' });
    expect(menu()).toBeNull();
    expect(document.activeElement).toBe(button());
    expect(button().dataset.space).toBe('page');
    // The page's shortcut takes Space and prevents the default (the browser's click on key up).
    expect(fireEvent.keyDown(button(), { key: ' ' })).toBe(false);
    expect(playing(lab)).toBe(true);
    fireEvent.keyDown(button(), { key: ' ' });
    expect(playing(lab)).toBe(false);
    expect(menu()).toBeNull();
  });

  it('after a second click on the button, and after a format is chosen, Space plays as well', async () => {
    const lab = await mount();
    lockIn();
    fireEvent.click(button());
    fireEvent.click(button());
    expect(menu()).toBeNull();
    expect(document.activeElement).toBe(button());
    fireEvent.keyDown(button(), { key: ' ' });
    expect(playing(lab)).toBe(true);
    act(() => lab.actions.pause());

    // The scenario (the one format offered while the outcome is hidden): downloaded, the menu
    // gone, the focus on the button — not on <body>.
    const url = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockReturnValue(undefined);
    fireEvent.click(button());
    fireEvent.click(screen.getAllByTestId(testIds.exportItem)[0]!);
    expect(url).toHaveBeenCalledTimes(1);
    expect(click).toHaveBeenCalledTimes(1);
    vi.restoreAllMocks();
    expect(menu()).toBeNull();
    expect(document.activeElement).toBe(button());
    fireEvent.keyDown(button(), { key: ' ' });
    expect(playing(lab)).toBe(true);
  });

  it('a button reached anew (the focus left and came back) keeps Space: the page does not take it', async () => {
    const lab = await mount();
    lockIn();
    fireEvent.click(button());
    fireEvent.keyDown(screen.getAllByTestId(testIds.exportItem)[0]!, { key: 'Escape' });
    expect(button().dataset.space).toBe('page');
    act(() => button().blur());
    expect(button().dataset.space).toBeUndefined();
    act(() => button().focus());
    // Not taken by the page: the browser's own Space (a click on key up) opens the menu.
    expect(fireEvent.keyDown(button(), { key: ' ' })).toBe(true);
    expect(playing(lab)).toBe(false);
    // A button that never had its menu open carries no mark either.
    cleanup();
    await mount();
    expect(button().dataset.space).toBeUndefined();
  });
});

describe('ExportMenu: the Markdown report after an undo (issue #23)', () => {
  afterEach(cleanup);

  it('carries the lanes and the atlas kinds of the step undone back to, as before', async () => {
    const lab = await mount();
    const atlas = { kinds: ['crash'], pairs: true };
    const compare = { lanes: [{ guarantee: 'exactly-once' as const }] };
    act(() => lab.actions.setAtlas(atlas, 'Fault atlas: kinds'));
    act(() => lab.actions.noteAtlasExplored());
    act(() => lab.actions.setCompare(compare));
    await act(() => lab.actions.settled());
    const before = await markdown();
    expect(before?.[2]).toEqual({
      preset: 'at-least-once/default',
      compare: { base: lab.app.getState().scenario, spec: compare },
      atlas: { ...atlas, explored: true },
    });
    // Another page opened (its default state: no lanes, every kind), then undone.
    act(() => lab.actions.loadPreset('at-most-once'));
    await act(() => lab.actions.settled());
    act(() => lab.actions.undo());
    await act(() => lab.actions.settled());
    expect(await markdown()).toEqual(before);
  });

  it('carries what the finished atlas found while the scenario is the one it explored', async () => {
    const lab = await mount();
    const scenario = lab.app.getState().scenario;
    const found = {
      input: scenario,
      choice: {},
      summary: 'found',
      counterexample: null,
      survives: true,
    };
    act(() => lab.actions.noteAtlasExplored(found));
    await act(() => lab.actions.settled());
    expect((await markdown())?.[2]?.atlasFound).toBe(found);
    // An edit since: the findings are another scenario's (the report names the choice only).
    act(() => lab.actions.setKnob('producer.acks', '1'));
    await act(() => lab.actions.settled());
    const after = (await markdown())?.[2];
    expect(after?.atlas).toEqual({ explored: true });
    expect(after?.atlasFound).toBeUndefined();
  });
});
