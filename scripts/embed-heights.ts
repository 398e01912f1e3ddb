// Measures the height the embedded player reserves for every library preset at a frame width
// (default 480 px: a docs column), as the host page would size its frame: the first height
// message. Needs a served build: `npx vite preview --port P`, then
// `npx tsx scripts/embed-heights.ts http://127.0.0.1:P/ [width] [preset filter]`.
import { chromium } from '@playwright/test';
import { labPresets as presets } from '../src/scenarios';
import { chromiumArgs, findOrInstallChromium } from './chromium.mjs';

const base = process.argv[2] ?? 'http://127.0.0.1:4173/';
const width = Number(process.argv[3] ?? 480);
const only = process.argv[4];
const refs = presets
  .flatMap((p) => p.variants.map((v) => `${p.id}/${v.id}`))
  .filter((ref) => !only || ref.includes(only));
const browser = await chromium.launch({
  executablePath: findOrInstallChromium(),
  args: chromiumArgs,
});
const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
const rows: [string, number[]][] = [];
for (const ref of refs) {
  const src = `${base}?embed&preset=${ref}&autoplay&speed=1000`;
  await page.setContent(
    `<body style="margin:0"><div style="width:${width}px"><iframe style="width:100%;border:0;height:480px" src="${src}"></iframe></div>
     <script>window.heights=[];addEventListener('message',e=>{if(e.data&&e.data.type==='delivery-lab:height'){heights.push(e.data.height);document.querySelector('iframe').style.height=e.data.height+'px'}})</script></body>`,
  );
  await page.waitForFunction(
    () => (window as unknown as { heights: number[] }).heights.length > 0,
    null,
    { timeout: 30_000 },
  );
  await page.waitForTimeout(2500);
  const heights = await page.evaluate(() => (window as unknown as { heights: number[] }).heights);
  rows.push([ref, heights]);
  console.log(`${ref}\t${heights.join(' ')}`);
}
const firsts = rows.map(([, h]) => h[0]);
console.log(
  `max first ${Math.max(...firsts)}; moved: ${rows.filter(([, h]) => new Set(h).size > 1).length}`,
);
await browser.close();
