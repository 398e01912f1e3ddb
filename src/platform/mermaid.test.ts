// @vitest-environment jsdom
import mermaid from 'mermaid';
import { describe, expect, it, vi } from 'vitest';
import diagrams from '../views/diagrams/mermaid.diagrams.json';
import { mermaidText } from '../views/diagrams/mermaid';
import {
  MERMAID_CONFIG,
  MERMAID_SLIDE_CONFIG,
  createMermaidRenderer,
  fitInto,
  loadMermaid,
  standaloneSvg,
  svgSize,
  type MermaidApi,
} from './mermaid';

// Whole runs on a loaded two-core machine: its slowest test took 4.7 s in a full CI run
// (this file 33.6 s), so each gets 25 s, ≥ 5× that, far from vitest's 5 s default.
vi.setConfig({ testTimeout: 25_000 });

// jsdom has no layout: give every SVG element a box so mermaid can place its text.
const proto = window.SVGElement.prototype as unknown as Record<string, unknown>;
proto.getBBox = () => ({ x: 0, y: 0, width: 120, height: 20 });
proto.getComputedTextLength = () => 120;

const texts = diagrams as Record<string, string>;

/** A fake mermaid whose renders resolve when the test says so, recording overlap. */
function fakeMermaid() {
  let active = 0;
  let maxActive = 0;
  const ids: string[] = [];
  const pending: (() => void)[] = [];
  const api: MermaidApi = {
    initialize: vi.fn(),
    parse: vi.fn(async (text: string) => {
      if (text.includes('bad')) throw new Error('Parse error on line 1');
      return { diagramType: 'sequence' };
    }),
    render: vi.fn(async (id: string, text: string) => {
      active++;
      maxActive = Math.max(maxActive, active);
      ids.push(id);
      await new Promise<void>((resolve) => pending.push(resolve));
      active--;
      return { svg: `<svg id="${id}">${text}</svg>` };
    }),
  };
  return {
    api,
    ids,
    maxActive: () => maxActive,
    /** Let pending promises settle without finishing any render. */
    async tick() {
      for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
    },
    /** Let every render started so far finish (and the ones they unblock). */
    async drain() {
      for (let i = 0; i < 50; i++) {
        await new Promise((r) => setTimeout(r, 0));
        pending.splice(0).forEach((f) => f());
      }
    },
  };
}

describe('loadMermaid', () => {
  it('imports once, configures strictly, and retries after a failed import', async () => {
    const fake = fakeMermaid();
    const failing = vi.fn(() => Promise.reject(new Error('chunk missing')));
    await expect(loadMermaid(failing)).rejects.toThrow('chunk missing');
    const importer = vi.fn(() => Promise.resolve({ default: fake.api }));
    const a = loadMermaid(importer);
    const b = loadMermaid(importer);
    expect(await a).toBe(fake.api);
    expect(await b).toBe(fake.api);
    expect(importer).toHaveBeenCalledTimes(1);
    expect(fake.api.initialize).toHaveBeenCalledWith(MERMAID_CONFIG);
    expect(MERMAID_CONFIG).toMatchObject({
      startOnLoad: false,
      securityLevel: 'strict',
      deterministicIds: true,
    });
  });
});

describe('createMermaidRenderer', () => {
  it('parses before rendering and reports a syntax error without rendering', async () => {
    const fake = fakeMermaid();
    const r = createMermaidRenderer(async () => fake.api);
    await expect(r.render('bad diagram')).resolves.toEqual({
      status: 'error',
      message: 'Parse error on line 1',
    });
    expect(fake.api.render).not.toHaveBeenCalled();
  });

  it('drops results a newer request superseded and gives each render a fresh id', async () => {
    const fake = fakeMermaid();
    const r = createMermaidRenderer(async () => fake.api, 'view');
    const first = r.render('one');
    await fake.tick(); // 'one' is rendering now
    expect(fake.ids).toHaveLength(1);
    const second = r.render('two');
    const third = r.render('three');
    await fake.drain();
    expect(await first).toEqual({ status: 'stale' });
    expect(await second).toEqual({ status: 'stale' }); // never rendered: 'three' came first
    const done = await third;
    expect(done).toMatchObject({ status: 'ok', svg: expect.stringContaining('three') });
    expect(fake.ids).toHaveLength(2);
    expect(new Set(fake.ids).size).toBe(2);
    expect(fake.ids.every((id) => id.startsWith('view-'))).toBe(true);
  });

  it('serialises renders of different views (mermaid is not re-entrant)', async () => {
    const fake = fakeMermaid();
    const a = createMermaidRenderer(async () => fake.api, 'a');
    const b = createMermaidRenderer(async () => fake.api, 'b');
    const results = Promise.all([a.render('x'), b.render('y'), a.render('z')]);
    await fake.drain();
    expect((await results).map((x) => x.status)).toEqual(['stale', 'ok', 'ok']);
    expect(fake.maxActive()).toBe(1);
  });

  it('reports a failed load as an error, not a rejection', async () => {
    const r = createMermaidRenderer(() => Promise.reject(new Error('offline')));
    await expect(r.render('sequenceDiagram')).resolves.toEqual({
      status: 'error',
      message: 'could not load mermaid: offline',
    });
  });
});

/** Element names and attributes that could run code or load something. */
function activeContent(svg: string): string[] {
  const doc = new DOMParser().parseFromString(svg, 'text/html');
  const found: string[] = [];
  for (const el of doc.querySelectorAll('*')) {
    const name = el.localName.toLowerCase();
    if (['script', 'iframe', 'object', 'embed', 'img', 'image', 'a', 'use'].includes(name))
      found.push(`<${name}>`);
    for (const attr of el.getAttributeNames()) {
      const value = el.getAttribute(attr) ?? '';
      if (/^on/i.test(attr)) found.push(`${name}[${attr}]`);
      if (/^\s*javascript:/i.test(value)) found.push(`${name}[${attr}=javascript:]`);
    }
  }
  return found;
}

function textOf(svg: string): string {
  return new DOMParser().parseFromString(svg, 'text/html').body.textContent ?? '';
}

describe('the real mermaid (jsdom, strict)', () => {
  const renderer = createMermaidRenderer(async () => {
    mermaid.initialize(MERMAID_CONFIG);
    return mermaid;
  });

  it.each(Object.keys(texts))('renders %s with no active content', async (name) => {
    const out = await renderer.render(texts[name]!);
    if (out.status !== 'ok') throw new Error(`${name}: ${JSON.stringify(out)}`);
    expect(activeContent(out.svg)).toEqual([]);
    expect(out.svg).not.toMatch(/<script/i);
  });

  it("draws the slide's labels at 28 px, one row of actors, the highlighted rows edged", async () => {
    const slide = createMermaidRenderer(async () => mermaid, 'slide', MERMAID_SLIDE_CONFIG);
    const out = await slide.render(
      'sequenceDiagram\n  participant P0 as producer\n  participant P1 as broker-1\n' +
        '  P0->>P1: produce p-4\n  rect rgb(253, 233, 210)\n  Note over P1: appended p-4\n  end\n',
    );
    if (out.status !== 'ok') throw new Error(JSON.stringify(out));
    const doc = new DOMParser().parseFromString(out.svg, 'text/html');
    const size = (selector: string) =>
      [...doc.querySelectorAll<SVGElement>(selector)].map((e) => e.style.fontSize);
    // The top-level fontSize: mermaid's sequence renderer copies it over its own sizes (16 px
    // by default, whatever `sequence.messageFontSize` says).
    expect(size('text.messageText')).toEqual(['28px']);
    expect(size('text.noteText')).toEqual(['28px']);
    expect(size('text.actor')).toEqual(['28px', '28px']);
    // Two participants, drawn once each: no mirrored row at the foot.
    expect(doc.querySelectorAll('rect.actor')).toHaveLength(2);
    expect(doc.querySelectorAll('.actor-bottom')).toHaveLength(0);
    // The duplicate's fill (the page's --dup-bg) gets the page's --dup as a 3 px edge.
    expect(out.svg).toMatch(
      /rect\.rect\[fill="rgb\(253, 233, 210\)"\]\{stroke:(#9a4a00|rgb\(154, 74, 0\));stroke-width:3px;?\}/,
    );
  });

  it('shows hostile scenario strings literally, as text', async () => {
    const seq = await renderer.render(texts['hostile/sequence']!);
    const flow = await renderer.render(texts['hostile/flow']!);
    if (seq.status !== 'ok' || flow.status !== 'ok') throw new Error('render failed');
    const seqText = textOf(seq.svg);
    expect(seqText).toContain('produce <script>window.__pwned=1</script>');
    expect(seqText).toContain('sink (table <img src=x onerror="window.__pwned=1">)');
    expect(seqText).toContain('reader-0 (javascript:window.__pwned=1, read_uncommitted)');
    expect(seqText).toContain('produce a;b#c%%d|e`f`');
    expect(seqText).toContain(
      '%%{init: {"securityLevel":"loose","startOnLoad":true}}%%'.slice(0, 40),
    );
    const flowText = textOf(flow.svg);
    expect(flowText).toContain('consumer group <svg onload="window.__pwned=1"> (1 instance)');
    expect(flowText).toContain('topic pay.ments_-v2');
  });

  it('keeps the diagram intact: an id with a line break and a mermaid statement adds no step', async () => {
    const text = texts['hostile/event-11']!;
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
    const db = diagram.db as unknown as { getMessages(): { message: string }[] };
    const steps = text.split('\n').filter((l) => /^ {2}(Note over|P\d+-)/.test(l));
    expect(db.getMessages()).toHaveLength(steps.length);
  });

  it('survives hostile event ids: parse succeeds, each step stays one step, text decodes back', async () => {
    const samples = [
      '"]; click P0 call alert(1); %%',
      'end\nloop x\nP0->>P0: y',
      '#9829; &amp; #35; &#35; ;;;',
      '%%{init: {"securityLevel": "loose"}}%%\nsequenceDiagram',
      '<br/><br><b>x</b>',
      '\u2028\u2029\u0085\u200b\ufeff',
      '---\ntitle: front\n---',
      '$$\\frac{1}{0}$$',
      ':::',
    ];
    for (const s of samples) {
      const text = `sequenceDiagram\n  participant P0 as ${mermaidText(s)}\n  P0->>P0: produce ${mermaidText(s)}\n  Note over P0: ${mermaidText(s)}\n`;
      const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
      const db = diagram.db as unknown as {
        getMessages(): { message: string }[];
        getActors(): Map<string, { description: string }>;
      };
      const decode = (x: string) =>
        x.replace(/\ufb02\u00b0\u00b0(\d+)\u00b6\u00df/g, (_, n: string) =>
          String.fromCodePoint(Number(n)),
        );
      const messages = db.getMessages().map((m) => decode(m.message));
      const oneLine = s.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
      expect(messages).toEqual([`produce ${oneLine}`, oneLine]);
      expect([...db.getActors().values()].map((a) => decode(a.description))).toEqual([oneLine]);
    }
  });
});

describe('export helpers', () => {
  const svg =
    '<svg id="x" width="100%" xmlns="http://www.w3.org/2000/svg" style="max-width: 400px;" viewBox="-50 -10 400 200"><text>a &lt; b</text></svg>';

  it('reads the size from the viewBox', () => {
    expect(svgSize(svg)).toEqual({ width: 400, height: 200 });
    expect(svgSize('<svg width="30" height="20"></svg>')).toEqual({ width: 30, height: 20 });
  });

  it('fits a diagram into a slide, centred, keeping its aspect ratio', () => {
    expect(fitInto({ width: 400, height: 200 }, { width: 1920, height: 1080 })).toEqual({
      x: 48,
      y: 84,
      width: 1824,
      height: 912,
    });
    expect(fitInto({ width: 100, height: 1000 }, { width: 1920, height: 1080 }, 40)).toEqual({
      x: 910,
      y: 40,
      width: 100,
      height: 1000,
    });
  });

  it('writes a standalone SVG file: XML, namespaced, with a pixel size', () => {
    const file = standaloneSvg(svg);
    expect(file.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg')).toBe(true);
    expect(file).toContain('width="400"');
    expect(file).toContain('height="200"');
    expect(file).not.toContain('max-width');
    const doc = new DOMParser().parseFromString(file, 'image/svg+xml');
    expect(doc.querySelector('parsererror')).toBeNull();
    // The text, then the style that keeps HTML labels from being clipped outside the page.
    const style = doc.documentElement.lastElementChild!;
    expect(style.localName).toBe('style');
    expect(style.textContent).toContain('foreignObject{overflow:visible}');
    style.remove();
    expect(doc.documentElement.textContent).toBe('a < b');
  });
});

describe('slideCanvas', () => {
  it('a diagram that fits a slide legibly gets the slide', async () => {
    const { slideCanvas } = await import('./mermaid');
    expect(slideCanvas({ width: 1200, height: 500 })).toEqual({ width: 1920, height: 1080 });
    expect(slideCanvas({ width: 900, height: 1100 })).toEqual({ width: 1920, height: 1080 });
  });
  it('a tall diagram keeps the slide width and grows, up to TALL_MAX', async () => {
    const { slideCanvas, TALL_MAX } = await import('./mermaid');
    // 1200 wide → drawn at 1824/1200 = 1.52×: 4000 px tall becomes 6080 + padding.
    expect(slideCanvas({ width: 1200, height: 4000 })).toEqual({ width: 1920, height: 6176 });
    expect(slideCanvas({ width: 1200, height: 40000 })).toEqual({ width: 1920, height: TALL_MAX });
  });
});

describe('export renderer', () => {
  it('draws with its own configuration, and the next view render goes back to the page configuration', async () => {
    const { createMermaidRenderer: make, MERMAID_EXPORT_CONFIG: exportConfig } =
      await import('./mermaid');
    const calls: unknown[] = [];
    const api: MermaidApi = {
      initialize: (c) => void calls.push(c),
      parse: async () => ({}),
      render: async (id) => ({ svg: `<svg id="${id}"></svg>` }),
    };
    expect(exportConfig.flowchart?.useMaxWidth).toBe(false);
    expect(exportConfig.securityLevel).toBe('strict');
    const view = make(async () => api, 'v');
    const exporter = make(async () => api, 'x', exportConfig);
    expect((await exporter.render('sequenceDiagram\n')).status).toBe('ok');
    expect((await view.render('sequenceDiagram\n')).status).toBe('ok');
    expect((await view.render('sequenceDiagram\n')).status).toBe('ok');
    expect(calls).toEqual([exportConfig, MERMAID_CONFIG]);
  });
});
