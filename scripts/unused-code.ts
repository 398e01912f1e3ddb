/**
 * What a page loads but never runs, module by module (issues 24 and 31: code to move out of a
 * first load): an address of the production build opened in headless Chromium with V8's block
 * coverage on, until its first screen is drawn — an embed with `autoplay=1` played to its end
 * (bench/transfer.ts `playedToEnd`), as the embed's budget counts it — and each script's bytes
 * that no function or block ran, attributed to the source modules they were built from (the
 * build's source maps, read by Node's own `module.SourceMap`), largest first. Build with source
 * maps apart first (dist/ untouched):
 *
 *   npx vite build --sourcemap --outDir /tmp/mapped
 *   UNUSED_DIST=/tmp/mapped npx tsx scripts/unused-code.ts             the Flink embed, played
 *   UNUSED_DIST=/tmp/mapped UNUSED_URL='?embed&preset=lost-ack-retry/acks-1&autoplay=1' …
 *   UNUSED_DIST=/tmp/mapped UNUSED_URL='' npx tsx scripts/unused-code.ts      the lab's page
 *
 * Bytes are minified, as built (a module's share, not the gzip a reader pays:
 * scripts/chunk-modules.ts says that per chunk). Code that runs only on a click (a menu, a jump)
 * counts as unused here: a lead to check, not a verdict. UNUSED_TOP=n prints n modules (40).
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startPreview } from '../bench/previewServer';
import { playedToEnd } from '../bench/transfer';
import { chromiumArgs, findOrInstallChromium } from './chromium.mjs';

const root = join(import.meta.dirname, '..');
const dist = process.env.UNUSED_DIST ?? join(root, 'dist');
const port = Number(process.env.UNUSED_PORT ?? 4311);
const address =
  process.env.UNUSED_URL ?? '?embed&preset=flink-checkpoint-replay/2pc-read-committed&autoplay=1';
const top = Number(process.env.UNUSED_TOP ?? 40);
const embed = new URLSearchParams(address).has('embed');
/** The first screen drawn: the embed's player with its run in, or the lab's verdict. */
const DRAWN = embed
  ? '[data-testid="embed-player"][data-status="ready"]'
  : '[data-testid="verdict"][data-observed], [data-testid="outcome-hidden"][data-what="verdict"]';

/**
 * Each byte of the built script `file` (its text `source`) to the source module it was built
 * from, by its source map (`file.map`): a list of [start offset, module] in order, the chunk's
 * own name where the map names none.
 */
function modulesOf(file: string, source: string): [number, string][] {
  const chunk = file.split('/').pop()!;
  // A script copied as written (public/boot-hint.js) has no map: all of it is its own.
  if (!existsSync(`${file}.map`)) return [[0, chunk]];
  const map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
  const out: [number, string][] = [];
  let line = 0;
  let lineStart = 0;
  // One lookup per 16 bytes: a module of a few bytes may go unseen, never a large one.
  for (let at = 0; at < source.length; at += 16) {
    for (let nl = source.indexOf('\n', lineStart); nl !== -1 && nl < at;) {
      line++;
      lineStart = nl + 1;
      nl = source.indexOf('\n', lineStart);
    }
    const hit = map.findEntry(line, at - lineStart);
    const from = (hit as { originalSource?: string }).originalSource ?? chunk;
    const name =
      from.startsWith('file:') || from.startsWith('/') || from.startsWith('.')
        ? relative(root, resolve(dirname(file), from.replace(/^file:\/\//, ''))).replace(
            /^(?:\.\.[\\/])*(?:.*[\\/])?node_modules[\\/]/,
            '~/',
          )
        : from;
    if (out.at(-1)?.[1] !== name) out.push([at, name]);
  }
  return out;
}

const server = await startPreview(dist, port);
try {
  const browser = await chromium.launch({
    executablePath: findOrInstallChromium(),
    args: chromiumArgs,
  });
  try {
    const context = await browser.newContext({
      viewport: embed ? { width: 700, height: 480 } : { width: 1280, height: 720 },
    });
    // A reader's browser, as bench/transfer.ts loads it: no test API (src/ui/hooks/useLabDriver.ts).
    await context.addInitScript(
      "Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false });",
    );
    const page = await context.newPage();
    await page.coverage.startJSCoverage({ resetOnNavigation: false });
    await page.goto(`http://127.0.0.1:${port}/${address}`);
    await page.waitForSelector(DRAWN, { timeout: 120_000 });
    if (embed && /[?&]autoplay=1/.test(address)) await playedToEnd(page);
    await page.waitForTimeout(1000);
    const byModule = new Map<string, { bytes: number; unused: number }>();
    for (const script of await page.coverage.stopJSCoverage()) {
      const path = new URL(script.url).pathname;
      if (!path.endsWith('.js') || script.source === undefined) continue;
      const src = script.source;
      // V8's ranges nest (a script, its functions, their blocks): the innermost range's count is
      // the byte's, so the longest are laid down first.
      const ranges = script.functions
        .flatMap((fn) => fn.ranges)
        .sort((a, b) => b.endOffset - b.startOffset - (a.endOffset - a.startOffset));
      const ran = new Uint8Array(src.length);
      for (const r of ranges) ran.fill(r.count > 0 ? 1 : 0, r.startOffset, r.endOffset);
      const regions = modulesOf(join(dist, decodeURIComponent(path)), src);
      regions.forEach(([start, name], i) => {
        const end = regions[i + 1]?.[0] ?? src.length;
        const m = byModule.get(name) ?? { bytes: 0, unused: 0 };
        m.bytes += end - start;
        for (let at = start; at < end; at++) m.unused += 1 - ran[at]!;
        byModule.set(name, m);
      });
    }
    const rows = [...byModule].sort((a, b) => b[1].unused - a[1].unused);
    const sum = (k: 'bytes' | 'unused') => rows.reduce((s, [, m]) => s + m[k], 0);
    const kB = (n: number) => (n / 1000).toFixed(1).padStart(6);
    console.log(
      `${address || '/'}: ${kB(sum('unused'))} kB of ${kB(sum('bytes'))} kB (minified, as built) never ran; by module:`,
    );
    for (const [name, m] of rows.slice(0, top))
      console.log(`${kB(m.unused)} of ${kB(m.bytes)} kB  ${name}`);
  } finally {
    await browser.close();
  }
} finally {
  server.kill();
}
