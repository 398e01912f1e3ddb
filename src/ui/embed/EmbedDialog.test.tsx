/**
 * The Embed dialog in jsdom: the speed it offers goes into the snippet's address (docs/embed.md:
 * every option of the player but `preset=` is set here).
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createArtifactClient } from '../../platform/runClient';
import type { Lab } from '../../store/labStore';
import { LabProvider } from '../../store/LabContext';
import { createNotices } from '../io/notices';
import { createShareSync, type ShareSync } from '../share/shareSync';
import { PageProvider } from '../io/PageContext';
import { testIds } from '../testIds';
import { presetLab } from '../testLab';
import { EmbedButton } from './EmbedButton';
import { decodeAtlas, encodeAtlas } from '../../views/atlas/atlasLink';

// Whole runs on a loaded two-core machine: its slowest test took 1.1 s in a full CI run
// (this file 2.3 s), so each gets 10 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 10_000 });

async function open(lab: Lab, shareLink: ShareSync | null = null): Promise<HTMLElement> {
  render(
    <LabProvider lab={lab}>
      <PageProvider
        page={{ notices: createNotices(), artifacts: createArtifactClient(), shareLink }}
      >
        <EmbedButton />
      </PageProvider>
    </LabProvider>,
  );
  await act(() => lab.actions.settled());
  fireEvent.click(screen.getByTestId(testIds.embedButton));
  // The dialog is a chunk of its own (src/ui/onDemandPanels.ts): in once its module is.
  return screen.findByTestId(testIds.embedDialog);
}

const snippet = () => (screen.getByTestId(testIds.embedSnippet) as HTMLTextAreaElement).value;
/** The iframe form of the snippet (the loader's element is the default). */
const iframeForm = () => fireEvent.click(screen.getByLabelText('an iframe and its listener'));
const pinBox = () => screen.getByLabelText(/pin what it shows for docs CI/) as HTMLInputElement;

describe('Embed dialog: the loader’s element, pinned for docs CI', () => {
  afterEach(cleanup);

  it('writes the element by default; a player that asks a prediction is not pinned until asked; the pin is the run’s expect', async () => {
    // at-least-once/default asks its question (predict=1): its expect block is the answer.
    await open(presetLab('at-least-once'));
    expect(snippet()).toMatch(
      /^<script src="[^"]*embed\.js"><\/script>\n<delivery-lab-embed predict /,
    );
    expect(pinBox().checked).toBe(false);
    expect(snippet()).not.toContain('expect=');
    fireEvent.click(pinBox());
    // The preset's hand-derived expect (src/scenarios/library): 24 rows for 20 events, 4 of them
    // duplicates, sum 2320, at-least-once — the run on screen, pinned.
    expect(snippet()).toContain(
      `expect='{"totals":{"rows":24,"duplicates":4,"lost":0,"sum":2320},"rows":{"p-4":2,"p-5":2,"p-7":2,"p-8":1},"observed":"at-least-once"}'>`,
    );
    expect(screen.getByTestId(testIds.embedDialog).textContent).toContain('it holds the outcome');
    iframeForm();
    // Loaded at once, as the loader's element is (no `loading="lazy"`: sized before it is seen).
    expect(snippet()).toContain(`border: 0"\n  data-expect='{"totals":{"rows":24,`);
    expect(snippet()).not.toContain('loading=');
  });

  it("pins the atlas's finding that the claim survives every fault it tried, while it is this scenario's", async () => {
    const lab = presetLab('effectively-once');
    const choice = { kinds: ['crash', 'drop-response'], explored: true };
    act(() => lab.actions.setAtlas(choice, 'Fault atlas: kinds'));
    await act(() => lab.actions.settled());
    // As the atlas panel notes a finished atlas in which every trial held (atlasFindings.ts).
    const input = lab.app.getState().scenario;
    act(() =>
      lab.actions.noteAtlasExplored({
        input,
        choice: { kinds: choice.kinds },
        summary: 'held',
        counterexample: null,
        survives: true,
      }),
    );
    await open(lab);
    // The preset asks its question: nothing is pinned until asked, the atlas neither.
    const atlasBox = screen.getByTestId(testIds.embedPinAtlas) as HTMLInputElement;
    expect([pinBox().checked, atlasBox.checked, atlasBox.disabled]).toEqual([false, false, true]);
    expect(snippet()).not.toContain('expect=');
    fireEvent.click(pinBox());
    expect(atlasBox.checked).toBe(true);
    expect(snippet()).toContain(
      `"observed":"exactly-once","atlas":{"kinds":["crash","drop-response"],"breaks":0}}'>`,
    );
    fireEvent.click(atlasBox);
    expect(snippet()).toContain(`"observed":"exactly-once"}'>`);
    expect(snippet()).not.toContain('"atlas"');
    cleanup();
    // An edit since: the finding is another scenario's, and the dialog offers nothing of it.
    act(() => lab.actions.setSeed(5));
    await open(lab);
    expect(screen.queryByTestId(testIds.embedPinAtlas)).toBeNull();
    expect(snippet()).not.toContain('"atlas"');
  });

  it('an atlas pin as written takes the counts of the atlas just run of its kinds and depth', async () => {
    const lab = presetLab('at-least-once');
    // Edited (no question asked, pinned by default), with a pin written to survive every fault.
    act(() => lab.actions.setSeed(5));
    const written = lab.app.getState().scenario;
    act(() =>
      lab.actions.loadScenario({ ...written, expect: { ...written.expect, atlas: { breaks: 0 } } }),
    );
    act(() => lab.actions.setAtlas({ explored: true }, 'Fault atlas'));
    await act(() => lab.actions.settled());
    // The page's atlas of every single fault then finds 17 trials that break the claim.
    act(() =>
      lab.actions.noteAtlasExplored({
        input: lab.app.getState().scenario,
        choice: {},
        summary: '277 placements: 260 held, 17 duplicate',
        counterexample: { words: 'a lost ack' },
        survives: false,
        outcomes: { held: 260, duplicates: 17, losses: 0, both: 0, stuck: 0 },
      }),
    );
    await open(lab);
    expect(snippet()).toContain('"atlas":{"breaks":17}}');
    expect(snippet()).not.toContain('"breaks":0');
  });

  it('a player that asks nothing is pinned by default', async () => {
    const lab = presetLab('at-least-once');
    // Edited: the preset's question no longer describes the run, so none is asked.
    act(() => lab.actions.setSeed(5));
    await open(lab);
    expect(pinBox().checked).toBe(true);
    expect(snippet()).toMatch(/ expect='\{"totals":\{"rows":\d+,/);
  });
});

describe('Embed dialog: the initial height', () => {
  afterEach(cleanup);

  it('is a field of the iframe’s, whose height it sets; the loader’s element is written its measured initial-height', async () => {
    // The field stood above both forms and wrote nothing into the element's snippet (the
    // default): an author who set it to avoid a jump copied a snippet without it.
    const dialog = await open(presetLab('at-least-once'));
    expect(within(dialog).queryByLabelText(/Initial height/)).toBeNull();
    iframeForm();
    const height = within(dialog).getByLabelText(/Initial height/) as HTMLInputElement;
    fireEvent.change(height, { target: { value: '780' } });
    expect(snippet()).toContain('style="width: 100%; height: 780px; border: 0"');
  });
});

describe('Embed dialog: the height the player measured, for either form', () => {
  afterEach(cleanup);

  /** The height message of the player in the measuring frame `which`, as it posts it. */
  function reports(dialog: HTMLElement, which: 'column' | 'phone', height: number) {
    const frame = dialog.querySelector<HTMLIFrameElement>(`iframe[data-measure="${which}"]`)!;
    act(() =>
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: new URL(frame.src).origin,
          source: frame.contentWindow,
          data: { type: 'delivery-lab:height', height, id: '' },
        }),
      ),
    );
  }

  it('writes initial-height per column width once both frames have reported, and the iframe’s height from the column’s', async () => {
    // The element had no initial height: its frame was 480 px until the player's first message,
    // ~1.3 s in, then ~790 px in a 720 px column, and the text below it moved.
    const dialog = await open(presetLab('at-least-once'));
    const frames = [...dialog.querySelectorAll<HTMLIFrameElement>('iframe[data-measure]')];
    expect(frames.map((f) => [f.dataset.measure, f.style.width])).toEqual([
      ['column', '720px'],
      ['phone', '358px'],
    ]);
    // The frames play the snippet's own player: the same address.
    expect(snippet()).toContain(
      `scenario-hash="${new URL(frames[0]!.src).hash.slice(1).replace(/&/g, '&amp;')}"`,
    );
    expect(snippet()).not.toContain('initial-height');
    reports(dialog, 'column', 789.4);
    expect(snippet()).not.toContain('initial-height');
    reports(dialog, 'phone', 1210);
    expect(snippet()).toContain('initial-height="(max-width: 479px) 1210px, 790px"');
    // A message from another window (not a measuring frame) changes nothing.
    act(() =>
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: window.location.origin,
          source: window,
          data: { type: 'delivery-lab:height', height: 300, id: '' },
        }),
      ),
    );
    expect(snippet()).toContain('initial-height="(max-width: 479px) 1210px, 790px"');
    // The iframe form: the column's height, one rule for both forms, until the author types one.
    iframeForm();
    expect(snippet()).toContain('style="width: 100%; height: 790px; border: 0"');
    fireEvent.change(within(dialog).getByLabelText(/Initial height/), { target: { value: '900' } });
    expect(snippet()).toContain('style="width: 100%; height: 900px; border: 0"');
  });
});

describe('Embed dialog: speed', () => {
  afterEach(cleanup);

  it('starts at the run’s own pace (no speed= written); a chosen speed goes in the address', async () => {
    const lab = presetLab('at-least-once');
    act(() => lab.actions.setSpeed(0.037));
    const dialog = await open(lab);
    iframeForm();
    const speed = within(dialog).getByLabelText('Speed') as HTMLSelectElement;
    expect(speed.value).toBe('');
    expect(snippet()).not.toContain('speed=');
    // The lab's speed now is offered, in its place on the ladder. (The preset's question comes
    // along: predict=1.)
    expect([...speed.options].map((o) => o.textContent).slice(0, 7)).toEqual([
      // at-least-once plays at its pace, ×0.013, in the lab and in an embed without speed=: in
      // the transport's words, one second of the run in 1.3 min.
      '1 s in 1.3 min, the run’s own pace',
      '1 s in 17 min (speed=0.001)',
      '1 s in 8.3 min (speed=0.002)',
      '1 s in 3.3 min (speed=0.005)',
      '1 s in 50 s (speed=0.02)',
      '1 s in 27 s (speed=0.037, as the lab plays now)',
      '1 s in 20 s (speed=0.05)',
    ]);
    fireEvent.change(speed, { target: { value: '0.1' } });
    expect(snippet()).toContain('?embed&amp;speed=0.1&amp;predict=1#s=2.');
    fireEvent.change(speed, { target: { value: '0.037' } });
    expect(snippet()).toContain('?embed&amp;speed=0.037&amp;predict=1#s=2.');
    fireEvent.change(speed, { target: { value: '' } });
    expect(snippet()).not.toContain('speed=');
  });
});

describe('Embed dialog: theme', () => {
  afterEach(cleanup);

  it('writes none by default (the element follows the page, the iframe the system); light or dark for either form', async () => {
    const dialog = await open(presetLab('lost-ack-retry/acks-1'));
    const theme = within(dialog).getByLabelText('Theme') as HTMLSelectElement;
    expect(theme.value).toBe('');
    expect(theme.options[0]!.textContent).toBe('the page’s, as the loader follows it');
    expect(snippet()).not.toContain('theme');
    fireEvent.change(theme, { target: { value: 'dark' } });
    expect(snippet()).toMatch(/<delivery-lab-embed [^>]*theme="dark"/);
    iframeForm();
    expect(theme.options[0]!.textContent).toBe('the reader’s system');
    expect(snippet()).toContain('?embed&amp;theme=dark#s=2.');
    fireEvent.change(theme, { target: { value: 'light' } });
    expect(snippet()).toContain('?embed&amp;theme=light#s=2.');
    fireEvent.change(theme, { target: { value: '' } });
    expect(snippet()).not.toContain('theme=');
  });
});

describe('Embed dialog: a share link’s question', () => {
  let sync: ShareSync | null = null;
  afterEach(() => {
    cleanup();
    sync?.dispose();
    sync = null;
  });
  const ask = () => screen.getByLabelText('Ask for a prediction, then reveal') as HTMLInputElement;

  it('the page opened from a link that asks (p=1): the player starts asking it; edited, not', async () => {
    const lab = presetLab('at-least-once');
    act(() => lab.actions.setSeed(5));
    const question = { ask: true as const, question: 'How many rows?', answer: '24: p-4 twice' };
    sync = createShareSync(lab, createNotices(), true, question);
    await open(lab, sync);
    iframeForm();
    expect(ask().checked).toBe(true);
    expect((screen.getByLabelText(/^Question/) as HTMLInputElement).value).toBe('How many rows?');
    expect(snippet()).toContain('&amp;predict=1&amp;q=How+many+rows%3F&amp;a=24%3A+p-4+twice#s=2.');
    cleanup();
    act(() => lab.actions.setSeed(6));
    await open(lab, sync);
    iframeForm();
    expect(ask().checked).toBe(false);
    expect(snippet()).not.toContain('predict=');
  });

  it('a preset as shipped opened from a link with p=0: the player asks nothing either', async () => {
    const lab = presetLab('at-least-once');
    sync = createShareSync(lab, createNotices(), true, { ask: false });
    await open(lab, sync);
    expect(ask().checked).toBe(false);
    expect(snippet()).not.toContain('predict=');
  });
});

describe('Embed dialog: the fault atlas choice (issue #23)', () => {
  afterEach(cleanup);

  it("carries the atlas's kinds and pairs in the hash's a= beside s= and c=; the query's a= stays the answer's", async () => {
    const lab = presetLab('at-least-once');
    const atlas = { kinds: ['crash'], pairs: true, explored: true };
    act(() => lab.actions.setAtlas(atlas, 'Fault atlas: kinds'));
    act(() => lab.actions.noteAtlasExplored());
    act(() => lab.actions.setCompare({ lanes: [{ guarantee: 'exactly-once' }] }));
    await open(lab);
    const url = new URL(
      screen.getByText('Preview the player ↗').getAttribute('href')!,
      'http://lab.test/',
    );
    const hash = new URLSearchParams(url.hash.slice(1));
    expect([...hash.keys()]).toEqual(['s', 'c', 'a']);
    expect(hash.get('a')).toBe(encodeAtlas(atlas));
    expect(decodeAtlas(url.hash, false)).toEqual({ ok: true, choice: atlas });
    // The preset's own question is asked (predict=1) and the player knows its answer: the query
    // has no a= (which would be the answer), so the hash's a= cannot be taken for it.
    expect(url.searchParams.get('predict')).toBe('1');
    expect(url.searchParams.has('a')).toBe(false);
    // The lanes run beside the scenario: ~5 s on a loaded machine, 20 s given.
  }, 20_000);

  it('carries the same a= and c= after an undo back to the page they were set on', async () => {
    const lab = presetLab('at-least-once');
    act(() => lab.actions.setAtlas({ kinds: ['zombie'] }, 'Fault atlas: kinds'));
    act(() => lab.actions.setCompare({ lanes: [{ guarantee: 'exactly-once' }] }));
    await open(lab);
    const hash = () =>
      new URLSearchParams(
        new URL(
          screen.getByText('Preview the player ↗').getAttribute('href')!,
          'http://lab.test/',
        ).hash.slice(1),
      );
    const before = hash();
    expect(before.get('a')).toMatch(/^1\./);
    expect(before.get('c')).toMatch(/^1\./);
    // Another page opened (no lanes, every kind: neither in the hash), then undone.
    act(() => lab.actions.loadPreset('at-most-once'));
    await act(() => lab.actions.settled());
    expect([...hash().keys()]).toEqual(['s']);
    act(() => lab.actions.undo());
    await act(() => lab.actions.settled());
    expect(hash().toString()).toBe(before.toString());
    // The lanes run beside the scenario: ~5 s on a loaded machine, 20 s given.
  }, 20_000);
});

describe('Embed dialog: the src= form, a scenario file beside the page (docs/embed.md)', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('offers it beside the hash form: the element names the file, which it downloads, pinned by its expect block', async () => {
    await open(presetLab('at-least-once'));
    const file = 'at-least-once-retry-everything-dedupe-nothing.scenario.json';
    // The hash form first, as before: its scenario in scenario-hash.
    expect(snippet()).toContain('scenario-hash="s=2.');
    fireEvent.click(screen.getByLabelText(/a scenario file beside the page/));
    expect(snippet()).toMatch(
      new RegExp(
        `^<script src="[^"]*embed\\.js"></script>\\n<delivery-lab-embed predict [^>]*src="${file}"`,
      ),
    );
    expect(snippet()).not.toContain('scenario-hash=');
    // Its pin is the file's expect block, not an attribute (`check` reads the file's).
    fireEvent.click(pinBox());
    expect(snippet()).not.toContain('expect=');
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blobs.push(b as Blob);
      return 'blob:file';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const download = screen.getByTestId(testIds.embedFile);
    expect(download.textContent).toBe(`Download ${file}`);
    fireEvent.click(download);
    expect(blobs).toHaveLength(1);
    const json = JSON.parse(await blobs[0]!.text()) as { name: string; expect?: unknown };
    expect(json.name).toBe('At-least-once: retry everything, dedupe nothing');
    // The preset's hand-derived totals (the element form's pin above): 24 rows, 4 duplicates.
    expect(json.expect).toMatchObject({ totals: { rows: 24, duplicates: 4, lost: 0, sum: 2320 } });
    // Unpinned, the file goes without one.
    fireEvent.click(pinBox());
    fireEvent.click(download);
    expect(JSON.parse(await blobs[1]!.text())).not.toHaveProperty('expect');
  });

  it('has a Copy of its own beside the Download: the element that plays the file, on the clipboard', async () => {
    await open(presetLab('at-least-once'));
    fireEvent.click(screen.getByLabelText(/a scenario file beside the page/));
    const copied: string[] = [];
    Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: (text: string) => (copied.push(text), Promise.resolve()) },
      configurable: true,
    });
    const copy = screen.getByTestId(testIds.embedFileCopy);
    expect(copy.textContent).toBe('Copy the element');
    await act(async () => fireEvent.click(copy));
    expect(copied).toEqual([snippet()]);
    expect(copied[0]).toContain(
      'src="at-least-once-retry-everything-dedupe-nothing.scenario.json"',
    );
    // Only in that form: the others' one thing to take is the snippet, under it.
    fireEvent.click(screen.getByLabelText(/the loader’s element \(sizes/));
    expect(screen.queryByTestId(testIds.embedFileCopy)).toBeNull();
    delete (navigator as { clipboard?: unknown }).clipboard;
  });

  it('names the file after the caption when there is one: two scenarios edited from one preset get two files', async () => {
    await open(presetLab('at-least-once'));
    fireEvent.click(screen.getByLabelText(/a scenario file beside the page/));
    const caption = screen.getByLabelText('Caption');
    fireEvent.change(caption, { target: { value: 'acks=1: a leader failover loses a record' } });
    const file = 'acks-1-a-leader-failover-loses-a-record.scenario.json';
    expect(screen.getByTestId(testIds.embedFile).textContent).toBe(`Download ${file}`);
    expect(snippet()).toContain(`src="${file}"`);
    fireEvent.change(caption, { target: { value: 'acks=all: the same failover loses nothing' } });
    expect(snippet()).toContain('src="acks-all-the-same-failover-loses-nothing.scenario.json"');
    // No caption (or only spaces): the scenario's name, as Export › Scenario names it.
    fireEvent.change(caption, { target: { value: '  ' } });
    expect(snippet()).toContain(
      'src="at-least-once-retry-everything-dedupe-nothing.scenario.json"',
    );
  });
});
