/**
 * The student's phone in a live workshop: an iPhone-sized screen (390×844, touch), a small
 * Android (360×740), the phone's large text (the page's root font at 150 % and 200 %). The
 * classroom server is started here on a free loopback port, serving the built dist/ (as
 * e2e/classroom.spec.ts does).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startClassroomServer } from '../server/classroomServer';
import { classroomOptions, classroomServerForSpec } from './support/classroomServer';
import { roomTestIds as ids } from '../src/ui/room/roomTestIds';
import { testIds } from '../src/ui/testIds';

const server = classroomServerForSpec();

const IPHONE = { width: 390, height: 844 };
const SMALL_ANDROID = { width: 360, height: 740 };

/** A phone's page: its screen, touch, a mobile browser's layout. */
async function phone(browser: Browser, viewport = IPHONE): Promise<Page> {
  const context = await browser.newContext({
    viewport,
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
  });
  return context.newPage();
}

/** The presenter's page on `preset` with a room started; its join code. */
async function startRoom(page: Page, preset: string): Promise<string> {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${server.url}?preset=${preset}`);
  await page.getByTestId(ids.start).click();
  return (await page.getByTestId(ids.code).textContent())!.trim();
}

/**
 * The controls a thumb aims at that are smaller than 44 × 44 CSS px, as "what: w×h" — the size
 * WCAG 2.5.5 asks of a target (https://www.w3.org/WAI/WCAG21/Understanding/target-size.html) and
 * Apple's guidelines of a touch target. A radio button counts by its option, the whole label
 * being the target.
 */
function smallTargets(page: Page): Promise<string[]> {
  return page.getByTestId(ids.student).evaluate((main) =>
    [...main.querySelectorAll('button, input:not([type=radio]), a, label:has(input[type=radio])')]
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && (r.width < 44 || r.height < 44))
      .map(
        ({ el, r }) =>
          `${(el.textContent || el.getAttribute('data-testid') || el.tagName).trim().slice(0, 24)}: ${Math.round(r.width)}×${Math.round(r.height)}`,
      ),
  );
}

/** Whether the page scrolls sideways. */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/**
 * With one thumb: Join, the name's box, a number's box and Send, and each option of a choice
 * were 29 to 41 px tall (Join 55×29, the number's box 106×26, the options 41 px with 13 px radio
 * buttons 4 px apart). And with the phone's large text at 200 %, the step's title (capped at
 * 8 vw: 28.8 px at 360 px) was smaller than the setup under it (35.2 px).
 */
test('on a phone every control is a thumb’s target, and large text keeps the title a title', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  // merge-duplicate-source asks a multiple choice of four options (src/scenarios/library/sink.ts).
  const code = await startRoom(page, 'merge-duplicate-source');
  const student = await phone(browser);
  await student.goto(`${server.url}?join=${code}`);
  await expect(student.getByTestId(ids.studentJoin)).toBeVisible();
  expect(await smallTargets(student)).toEqual([]);
  await student.getByTestId(ids.studentJoin).tap();
  await page.getByTestId(ids.publish).click();
  await expect(student.getByRole('radio')).toHaveCount(4);
  expect(await smallTargets(student)).toEqual([]);
  // A tap on an option's text picks it.
  await student.getByText('Only {o1: 100}').tap();
  await expect(student.getByRole('radio', { name: /Only \{o1: 100\}/ })).toBeChecked();
  expect(await scrollsSideways(student)).toBe(false);

  // The small Android, on a number question (at-least-once: how many rows, 24).
  const number = await startRoom(page, 'at-least-once');
  const android = await phone(browser, SMALL_ANDROID);
  await android.goto(`${server.url}?join=${number}`);
  await android.getByTestId(ids.studentJoin).tap();
  await page.getByTestId(ids.publish).click();
  await expect(android.getByTestId(ids.studentAnswer)).toBeVisible();
  await android.getByTestId(ids.studentAnswer).fill('24');
  expect(await smallTargets(android)).toEqual([]);
  expect(await scrollsSideways(android)).toBe(false);

  // The phone's large text: the title stays at least as large as the text under it, and
  // nothing scrolls sideways.
  for (const [p, scale] of [
    [student, '150%'],
    [student, '200%'],
    [android, '200%'],
  ] as const) {
    await p.evaluate((s) => (document.documentElement.style.fontSize = s), scale);
    const sizes = await p.getByTestId(ids.studentStep).evaluate((step) => ({
      title: parseFloat(getComputedStyle(step.querySelector('h1')!).fontSize),
      setup: parseFloat(getComputedStyle(step.querySelector('.room-setup')!).fontSize),
    }));
    expect(sizes.title, `title at ${scale}`).toBeGreaterThanOrEqual(sizes.setup);
    expect(await scrollsSideways(p), `sideways at ${scale}`).toBe(false);
    expect(await smallTargets(p), `targets at ${scale}`).toEqual([]);
  }
  await student.context().close();
  await android.context().close();
});

/**
 * The connection lost and back: the classroom server stops (its results file kept) and starts
 * again on its port, and the phone goes offline. Before, the phone said "reconnecting…" in its
 * small grey status line only, and an answer changed meanwhile went nowhere without a word — the
 * page dropped it, "Sent: 20 rows" still on screen, and the room counted the old one.
 */
test('the phone says when its connection is lost, keeps an answer given meanwhile and sends it once back', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const dir = await mkdtemp(join(tmpdir(), 'phone-results-'));
  const options = { ...classroomOptions(), resultsFile: join(dir, 'class.json') };
  let own = await startClassroomServer({ ...options, port: 0 });
  try {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${own.url}?preset=at-least-once`);
    await page.getByTestId(ids.start).click();
    const code = (await page.getByTestId(ids.code).textContent())!.trim();
    const student = await phone(browser);
    await student.goto(`${own.url}?join=${code}`);
    await student.getByTestId(ids.studentJoin).tap();
    await page.getByTestId(ids.publish).click();
    const status = student.getByTestId(ids.studentStatus);
    await expect(status).toHaveText(`Room ${code} · connected`);
    await student.getByTestId(ids.studentAnswer).fill('20');
    await student.getByTestId(ids.studentSend).tap();
    await expect(student.getByTestId(ids.studentSent)).toHaveText(
      'Sent: 20 rows. You can change it until the answers close.',
    );

    // The server stops: the phone says so in words, at the top of its screen.
    await own.close();
    await expect(status).toHaveText(
      'Connection lost: reconnecting… Your answer is kept, and you can still change it.',
    );
    await expect(status).toHaveAttribute('role', 'alert');
    // A changed answer waits for the connection, and the phone says it has not gone yet.
    await student.getByTestId(ids.studentAnswer).fill('24');
    await student.getByTestId(ids.studentSend).tap();
    await expect(student.getByTestId(ids.studentSent)).toHaveText(
      'Not sent yet: 24 rows. It goes as soon as the connection is back.',
    );
    // Back on its port with its results file: the phone rejoins and sends the answer it kept;
    // the room counts it once, 24 and not 20.
    own = await startClassroomServer({ ...options, port: own.port });
    await expect(status).toHaveText(`Room ${code} · connected`, { timeout: 20_000 });
    await expect(student.getByTestId(ids.studentSent)).toHaveText(
      'Sent: 24 rows. You can change it until the answers close.',
    );
    await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered', {
      timeout: 20_000,
    });
    const bars = page.getByTestId(ids.histogram).locator('li');
    await expect(bars).toHaveCount(1);
    await expect(bars.first()).toHaveAttribute('data-value', '24');
    await expect(bars.first()).toHaveAttribute('data-count', '1');

    // The phone offline (its network off), then back.
    await student.context().setOffline(true);
    await expect(status).toHaveText(
      'You are offline: the page rejoins the room by itself when your phone is back online.',
    );
    await student.context().setOffline(false);
    await expect(status).toHaveText(`Room ${code} · connected`, { timeout: 20_000 });
    await student.context().close();
  } finally {
    await own.close();
  }
});

/**
 * The join link opened again on the same phone — a second scan of the QR code, a tab closed and
 * the link reopened — is the same student. Each tab was a student of its own (the token lived in
 * the tab's sessionStorage): the projector counted "1 of 2 answered" for one phone, the second
 * never answering, and a student who closed the tab lost their answer.
 */
test('the join link opened again on the same phone is the same student, counted once', async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  const code = await startRoom(page, 'at-least-once');
  const first = await phone(browser);
  await first.goto(`${server.url}?join=${code}`);
  await first.getByTestId(ids.studentName).fill('Zoë 👩‍💻');
  await first.getByTestId(ids.studentJoin).tap();
  await page.getByTestId(ids.publish).click();
  await first.getByTestId(ids.studentAnswer).fill('20');
  await first.getByTestId(ids.studentSend).tap();
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered');
  // A second tab on the same phone: in the room at once, with the answer, no second Join.
  const context = first.context();
  const second = await context.newPage();
  await second.goto(`${server.url}?join=${code}`);
  await expect(second.getByTestId(ids.studentSent)).toHaveText(
    'Sent: 20 rows. You can change it until the answers close.',
  );
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered');
  // Changed in the second tab: the first tab says so too, and the room has one answer, 24.
  await second.getByTestId(ids.studentAnswer).fill('24');
  await second.getByTestId(ids.studentSend).tap();
  await expect(first.getByTestId(ids.studentSent)).toHaveText(
    'Sent: 24 rows. You can change it until the answers close.',
  );
  const bars = page.getByTestId(ids.histogram).locator('li');
  await expect(bars).toHaveCount(1);
  await expect(bars.first()).toHaveAttribute('data-value', '24');
  // Both tabs closed, the link opened again: still the same student.
  await first.close();
  await second.close();
  const again = await context.newPage();
  await again.goto(`${server.url}?join=${code}`);
  await expect(again.getByTestId(ids.studentSent)).toContainText('Sent: 24 rows.');
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered');
  // Another phone is another student.
  const other = await phone(browser);
  await other.goto(`${server.url}?join=${code}`);
  await other.getByTestId(ids.studentJoin).tap();
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 2 answered');
  // On the page the presenter's Play closes the answers (docs/classroom.md), not a Reveal: the
  // phone said "You can change it until the presenter presses Reveal".
  await page.getByTestId(testIds.play).click();
  await expect(again.getByTestId(ids.studentClosed)).toContainText(
    'Answers are closed. Your answer: 24 rows.',
  );
  await context.close();
  await other.context().close();
});

/**
 * The presenter moves on while the student is scrolled down (reading the answer under the
 * room's bars, with the phone's large text): the phone stayed where it was, in the middle of the
 * next step's options, its title and setup above the screen and nothing saying the question had
 * changed. The next step opens at its top.
 */
test('the next step opens at its title, not where the phone was scrolled', async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${server.url}?lesson=delivery-guarantees-45`);
  await page.getByTestId(ids.start).click();
  const code = (await page.getByTestId(ids.code).textContent())!.trim();
  const student = await phone(browser);
  await student.goto(`${server.url}?join=${code}`);
  await student.getByTestId(ids.studentJoin).tap();
  await expect(student.getByTestId(ids.studentStep)).toHaveAttribute('data-step', '0');
  await student.evaluate(() => (document.documentElement.style.fontSize = '200%'));
  await student.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const title = student.getByTestId(ids.studentStep).locator('h1');
  await expect(title).not.toBeInViewport();
  await page.locator('body').press('PageDown');
  await expect(student.getByTestId(ids.studentStep)).toHaveAttribute('data-step', '1');
  await expect(title).toHaveText('At-least-once: retry everything, dedupe nothing');
  await expect(title).toBeInViewport({ ratio: 1 });
  await student.context().close();
});

/**
 * A phone left idle on the venue's Wi-Fi, its socket dead without a word (no close: the network
 * went away). The browser never sees the server's pings, so the page heard nothing and said
 * "connected" until its student answered or put it away and back. The server's heartbeat is a
 * message too, and the page expects one within the interval it is told and as much again (at
 * most 5 s more): without it, the phone says the connection is lost and rejoins by itself, the
 * same student, an answer given meanwhile kept and sent.
 */
test('an idle phone whose socket died without a word says so and rejoins by itself, the same student, its answer kept', async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  // Its heartbeat every second: the phone expects a word from the server within 2 s.
  const own = await startClassroomServer({
    ...classroomOptions(),
    heartbeatMs: 1000,
  });
  try {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${own.url}?preset=at-least-once`);
    await page.getByTestId(ids.start).click();
    const code = (await page.getByTestId(ids.code).textContent())!.trim();
    // While `dead`, a phone's first socket passes nothing either way and is not closed, and a
    // new one is refused (the Wi-Fi gone); then the network is back.
    let dead = false;
    const onWifi = async () => {
      const p = await phone(browser);
      let sockets = 0;
      await p.routeWebSocket(/\/ws$/, (ws) => {
        const k = ++sockets;
        if (dead) return void ws.close();
        const server = ws.connectToServer();
        ws.onMessage((m) => {
          if (!(dead && k === 1)) server.send(m);
        });
        server.onMessage((m) => {
          if (!(dead && k === 1)) ws.send(m);
        });
      });
      await p.goto(`${own.url}?join=${code}`);
      await p.getByTestId(ids.studentJoin).tap();
      return p;
    };
    const student = await onWifi();
    // A second phone that has not answered yet.
    const idle = await onWifi();
    await page.getByTestId(ids.publish).click();
    const status = student.getByTestId(ids.studentStatus);
    await expect(status).toHaveText(`Room ${code} · connected`);
    await student.getByTestId(ids.studentAnswer).fill('20');
    await student.getByTestId(ids.studentSend).tap();
    await expect(page.getByTestId(ids.answered)).toHaveText('1 of 2 answered');
    const token = () =>
      student.evaluate((c) => localStorage.getItem(`delivery-lab:room-student:${c}`), code);
    const seat = await token();

    dead = true;
    // Nobody touches the phone: it notices by itself.
    await expect(status).toHaveText(
      'Connection lost: reconnecting… Your answer is kept, and you can still change it.',
      { timeout: 10_000 },
    );
    // "Your answer is kept" said of no answer: the phone that has none may still give one.
    await expect(idle.getByTestId(ids.studentStatus)).toHaveText(
      'Connection lost: reconnecting… You can still answer: it goes when the connection is back.',
    );
    await student.getByTestId(ids.studentAnswer).fill('24');
    await student.getByTestId(ids.studentSend).tap();
    await expect(student.getByTestId(ids.studentSent)).toHaveText(
      'Not sent yet: 24 rows. It goes as soon as the connection is back.',
    );
    dead = false;
    await expect(status).toHaveText(`Room ${code} · connected`, { timeout: 20_000 });
    await expect(student.getByTestId(ids.studentSent)).toHaveText(
      'Sent: 24 rows. You can change it until the answers close.',
    );
    // The same student (the same token): one, whose answer is now 24.
    expect(JSON.parse((await token())!).studentToken).toBe(JSON.parse(seat!).studentToken);
    await expect(page.getByTestId(ids.answered)).toHaveText('1 of 2 answered');
    const bars = page.getByTestId(ids.histogram).locator('li');
    await expect(bars).toHaveCount(1);
    await expect(bars.first()).toHaveAttribute('data-value', '24');
    await expect(bars.first()).toHaveAttribute('data-count', '1');
    await expect(idle.getByTestId(ids.studentStatus)).toHaveText(`Room ${code} · connected`);
    await student.context().close();
    await idle.context().close();
  } finally {
    await own.close();
  }
});

/**
 * Back from the background (the phone locked, another app), its socket dead without the page
 * being told — the phone's network changed while it slept. The phone stayed on the step before
 * for good, "connected", while the room moved on. Back on screen it says hello again, and a
 * socket that does not answer is replaced: the phone shows the step the room is on.
 */
test('back on screen after the background, a phone whose socket died shows the step the room is on', async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${server.url}?lesson=delivery-guarantees-45`);
  await page.getByTestId(ids.start).click();
  const code = (await page.getByTestId(ids.code).textContent())!.trim();
  const student = await phone(browser);
  // The phone's sockets pass through here; the first one goes dead on demand (nothing through,
  // either way, and no close), as a socket does whose network went away.
  let dead = false;
  let sockets = 0;
  await student.routeWebSocket(/\/ws$/, (ws) => {
    const k = ++sockets;
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      if (!(dead && k === 1)) server.send(m);
    });
    server.onMessage((m) => {
      if (!(dead && k === 1)) ws.send(m);
    });
  });
  await student.goto(`${server.url}?join=${code}`);
  await student.getByTestId(ids.studentJoin).tap();
  await expect(student.getByTestId(ids.studentStep)).toHaveAttribute('data-step', '0');
  dead = true;
  await page.locator('body').press('PageDown');
  await expect(page.getByTestId(ids.panel)).toContainText('0 of 1 answered');
  // The page back on screen (the browser tells it: visibilitychange).
  await student.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect(student.getByTestId(ids.studentStep)).toHaveAttribute('data-step', '1', {
    timeout: 15_000,
  });
  await expect(student.getByTestId(ids.studentStatus)).toHaveText(`Room ${code} · connected`);
  expect(sockets).toBe(2);
  // Still one student in the room.
  await expect(page.getByTestId(ids.answered)).toHaveText('0 of 1 answered');
  await student.context().close();
});

/**
 * A tab that joined before a student's token moved from the tab's sessionStorage to localStorage
 * (per join code) rejoined as a new student after a reload: "1 of 2 answered" for one phone, its
 * answer gone from its screen. Its old seat is moved once, and the reload is the same student.
 */
test('a tab that joined when the token lived in sessionStorage rejoins as the same student after a reload', async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  const code = await startRoom(page, 'at-least-once');
  const student = await phone(browser);
  await student.goto(`${server.url}?join=${code}`);
  await student.getByTestId(ids.studentJoin).tap();
  await page.getByTestId(ids.publish).click();
  await student.getByTestId(ids.studentAnswer).fill('20');
  await student.getByTestId(ids.studentSend).tap();
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered');
  // The seat as the page kept it before: in the tab, one key, no code in its name.
  await student.evaluate((c) => {
    const key = `delivery-lab:room-student:${c}`;
    const seat = JSON.parse(localStorage.getItem(key)!) as { studentToken: string };
    localStorage.removeItem(key);
    sessionStorage.setItem(
      'delivery-lab:room-student',
      JSON.stringify({ code: c, studentToken: seat.studentToken }),
    );
  }, code);
  await student.reload();
  await expect(student.getByTestId(ids.studentSent)).toHaveText(
    'Sent: 20 rows. You can change it until the answers close.',
  );
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered');
  expect(await student.evaluate(() => sessionStorage.getItem('delivery-lab:room-student'))).toBe(
    null,
  );
  await student.context().close();
});

/**
 * A phone whose browser refuses to store anything (a private window of a browser that throws on
 * localStorage.setItem, storage full): every reconnection joined as a new student — "1 of 2
 * answered" for one phone after a Wi-Fi blip, and its answer gone from its screen. The page keeps
 * its token in memory too, for as long as it is open.
 */
test('a phone that cannot store its token rejoins as the same student after a blip', async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  const code = await startRoom(page, 'at-least-once');
  const student = await phone(browser);
  await student.addInitScript(() => {
    Storage.prototype.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  });
  // The first socket is closed by the network after the answer (a blip); the next one passes.
  let blip = false;
  let sockets = 0;
  await student.routeWebSocket(/\/ws$/, (ws) => {
    const k = ++sockets;
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      ws.send(m);
      if (blip && k === 1) ws.close();
    });
  });
  await student.goto(`${server.url}?join=${code}`);
  await student.getByTestId(ids.studentJoin).tap();
  await page.getByTestId(ids.publish).click();
  blip = true;
  await student.getByTestId(ids.studentAnswer).fill('20');
  await student.getByTestId(ids.studentSend).tap();
  await expect(student.getByTestId(ids.studentStatus)).toHaveText(`Room ${code} · connected`);
  await expect.poll(() => sockets, { timeout: 15_000 }).toBe(2);
  await expect(student.getByTestId(ids.studentSent)).toHaveText(
    'Sent: 20 rows. You can change it until the answers close.',
  );
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered');
  await student.context().close();
});

/**
 * A number sent with the keyboard's Go (Enter): the keyboard stayed up, the answer's box still
 * focused, and it covered "Sent: 24 rows" under the button. The focus moves to the button, which
 * puts the keyboard away and keeps the student's place in the form.
 */
test('a number sent from the phone’s keyboard puts the keyboard away: the box no longer focused', async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  const code = await startRoom(page, 'at-least-once');
  const student = await phone(browser);
  await student.goto(`${server.url}?join=${code}`);
  await student.getByTestId(ids.studentJoin).tap();
  await page.getByTestId(ids.publish).click();
  const box = student.getByTestId(ids.studentAnswer);
  await box.tap();
  await student.keyboard.type('24');
  await student.keyboard.press('Enter');
  await expect(student.getByTestId(ids.studentSent)).toContainText('Sent: 24 rows.');
  await expect(box).not.toBeFocused();
  await expect(student.getByTestId(ids.studentSend)).toBeFocused();
  await student.context().close();
});

// A challenge opened from the phone's link ("Open the challenge ↗"): the student changes knobs
// there. The knob rows' three columns (13em + 10em + 2em at least) were wider than the phone, and
// every row's ⓘ button was cut 18 px at the Knobs tab's right edge, the tab scrolling sideways.
test('on a phone a challenge’s Knobs tab fits: each knob’s field and ⓘ button whole, nothing sideways', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const student = await phone(browser);
  await student.goto(`${server.url}?challenge=fix-at-least-once`);
  await expect(student.getByTestId(testIds.challengePanel)).toBeVisible();
  await student.getByRole('tab', { name: 'Knobs' }).tap();
  const knobs = student.getByTestId(testIds.knobs);
  await expect(knobs.getByTestId(testIds.knob).first()).toBeVisible();
  const cut = await knobs.evaluate((panel) => {
    const right = panel.getBoundingClientRect().right;
    return {
      sideways: panel.scrollWidth - panel.clientWidth,
      rows: [...panel.querySelectorAll<HTMLElement>('.knob-row')].flatMap((row) =>
        [...row.children]
          .filter((el) => el.getBoundingClientRect().right > right + 0.5)
          .map((el) => `${row.dataset.knob}: ${el.tagName.toLowerCase()}`),
      ),
    };
  });
  expect(cut.sideways, 'the Knobs tab scrolls sideways by').toBeLessThanOrEqual(0);
  expect(cut.rows).toEqual([]);
  // The statement the challenge's solution sets: its select chosen with a thumb, the row's help.
  const statement = knobs.locator('[data-knob="sink.statement"]');
  await statement.getByRole('combobox').selectOption('on-conflict-do-nothing');
  await statement.getByRole('button', { name: 'About statement' }).tap();
  await expect(statement.getByRole('note')).toBeVisible();
  await student.context().close();
});
