/**
 * The README's workshop picture (docs/workshop.png): a lesson's presenter view at 1280×720 with
 * its room live — the join code and QR code, the step's setup and question, and the answers of a
 * room of 24 students as they come in (before the reveal). The classroom server is started here
 * on a free loopback port, serving the built dist/ (`npx vite build` first); the students join
 * and answer with the documented protocol (docs/classroom.md), as the server's tests do.
 *
 *   npx tsx scripts/workshop-shot.ts [out.png]
 */
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startClassroomServer } from '../server/classroomServer';
import { RoomTestClient } from '../server/roomTestClient';
import { roomTestIds as ids } from '../src/ui/room/roomTestIds';
import { chromiumArgs, findOrInstallChromium } from './chromium.mjs';

const out = process.argv[2] ?? 'docs/workshop.png';
const LESSON = 'delivery-guarantees-45';
/** Step 2 asks how many rows the sink ends with (the at-least-once story): the room's answers. */
const STEP = 2;
const ANSWERS = { '24': 11, '20': 7, '22': 4, '40': 2 };

// The join line as a class reads it from `--host` (a LAN address), not this loopback one.
const server = await startClassroomServer({
  host: '127.0.0.1',
  port: 0,
  distDir: resolve('dist'),
  publicHost: '192.168.1.20',
});
const browser = await chromium.launch({
  executablePath: findOrInstallChromium(),
  args: chromiumArgs,
});
const students: RoomTestClient[] = [];
try {
  const page = await browser.newPage({
    viewport: { width: 1280, height: 720 },
    colorScheme: 'light',
  });
  // The clock paused: the step's run waits at t = 0 with its question, as in class.
  await page.clock.install();
  await page.goto(`${server.url}?lesson=${LESSON}&step=${STEP}`);
  await page
    .getByTestId('lesson-presenter')
    .and(page.locator(`[data-step="${STEP}"]`))
    .waitFor();
  await page.getByTestId(ids.start).click();
  const code = (await page.getByTestId(ids.code).textContent())!.trim();
  for (const [value, n] of Object.entries(ANSWERS))
    for (let k = 0; k < n; k++) {
      const s = await RoomTestClient.open(server.url);
      students.push(s);
      s.send({ type: 'join', code });
      const joined = await s.next('joined');
      const step = joined.step ?? (await s.next('step')).step;
      s.send({ type: 'answer', stepIndex: step.stepIndex, value });
      await s.next('accepted');
    }
  const total = students.length;
  await page
    .getByTestId(ids.answered)
    .and(page.locator(`:text("${total} of ${total} answered")`))
    .waitFor();
  await page.waitForTimeout(500);
  await page.screenshot({ path: out });
  console.log(out);
} finally {
  for (const s of students) s.close();
  await browser.close();
  await server.close();
}
