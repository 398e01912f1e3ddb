// Screenshots of the embedded player at docs-column widths, as a host page frames it (sized by
// the first height message), after an autoplayed run: one PNG per preset and width.
// Needs a served build: `npx vite preview --port P`, then
// `npx tsx scripts/embed-shots.ts http://127.0.0.1:P/ OUT_DIR [widths,…] [preset refs,…]`.
import { chromium } from '@playwright/test';
import { chromiumArgs, findOrInstallChromium } from './chromium.mjs';

const base = process.argv[2] ?? 'http://127.0.0.1:4173/';
const out = process.argv[3] ?? '/tmp';
const widths = (process.argv[4] ?? '480,700').split(',').map(Number);
const refs = (
  process.argv[5] ??
  'at-least-once/default,flink-checkpoint-replay/2pc-read-committed,spark-batch-replay/append'
).split(',');
const browser = await chromium.launch({
  executablePath: findOrInstallChromium(),
  args: chromiumArgs,
});
for (const width of widths) {
  const page = await browser.newPage({ viewport: { width: width + 40, height: 1600 } });
  for (const ref of refs) {
    const src = `${base}?embed&preset=${ref}&autoplay&speed=1000`;
    await page.setContent(
      `<body style="margin:0;padding:20px;background:#ccc"><div style="width:${width}px"><iframe style="width:100%;border:0;height:480px;background:#fff" src="${src}"></iframe></div>
       <script>window.heights=[];addEventListener('message',e=>{if(e.data&&e.data.type==='delivery-lab:height'){heights.push(e.data.height);document.querySelector('iframe').style.height=e.data.height+'px'}})</script></body>`,
    );
    await page.waitForFunction(
      () => (window as unknown as { heights: number[] }).heights.length > 0,
      null,
      { timeout: 30_000 },
    );
    const frame = page.frames()[1]!;
    await frame.waitForSelector('[data-testid="counter-missing"][data-final="true"]', {
      timeout: 30_000,
    });
    await page.waitForTimeout(500);
    const heights = await page.evaluate(() => (window as unknown as { heights: number[] }).heights);
    const file = `${out}/${ref.replace('/', '--')}-${width}.png`;
    await page.screenshot({ path: file, fullPage: true });
    console.log(`${ref}\t${width}\t${heights.join(' ')}\t${file}`);
  }
  await page.close();
}
await browser.close();
