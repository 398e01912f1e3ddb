/**
 * Page objects and fixtures for the dashboard specs: the typed dev/test API on `window` (reached
 * through page.evaluate) for setting things up and reading the engine's own values, and the
 * shared test ids for everything a user clicks and reads.
 */
import { expect, test as base, type Locator, type Page } from '@playwright/test';
import { testIds } from '../src/ui/testIds';
import type { DeliveryLabTestApi, TestCounters } from '../src/ui/testApiTypes';

/** Files as a file picker is given them (names, types and contents). */
export type PickedFiles = Parameters<Locator['setInputFiles']>[0];

/** Counters as the page shows them (read from the DOM, not from the API). */
export interface ShownCounters {
  sent: number;
  rows: number;
  duplicates: number;
  missing: number;
  final: boolean;
  sum: number;
  doubleCounted: number;
}

/** The dashboard page object. */
export class Dashboard {
  readonly errors: string[] = [];

  constructor(readonly page: Page) {
    page.on('console', (m) => {
      if (m.type() === 'error') this.errors.push(m.text());
    });
    page.on('pageerror', (e) => this.errors.push(e.message));
  }

  byId(id: string): Locator {
    return this.page.getByTestId(id);
  }

  /** Open the page (at `address`, relative to the served build) and wait for the first run. */
  async goto(address = './'): Promise<void> {
    await this.page.goto(address);
    await this.ready();
  }

  /** Reload the page (what a browser restores: its storage, its address) and wait for its first run. */
  async reload(): Promise<void> {
    await this.page.reload();
    await this.ready();
  }

  /** Wait until the page's first run is on screen (the test API says `ready`). */
  async ready(): Promise<void> {
    await this.page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  }

  /**
   * Call a method of the dev/test API in the page. (By name: the page's Content-Security-Policy
   * forbids evaluating code strings, so no closures are shipped.)
   */
  async api<K extends keyof DeliveryLabTestApi>(
    method: K,
    ...args: Parameters<DeliveryLabTestApi[K]>
  ): Promise<Awaited<ReturnType<DeliveryLabTestApi[K]>>> {
    return this.page.evaluate(
      ([m, a]) => {
        const api = window.__deliveryLab!;
        return (api[m as keyof DeliveryLabTestApi] as (...x: unknown[]) => unknown)(
          ...(a as unknown[]),
        );
      },
      [method, args] as const,
    ) as Promise<Awaited<ReturnType<DeliveryLabTestApi[K]>>>;
  }

  /** Wait until the current run has settled and is on screen. */
  async settled(): Promise<void> {
    // The test API is installed by a lazy import once the page has mounted: until then there is
    // nothing to ask, and the run status element may not say 'running' yet either. A preset of a
    // family not loaded yet is 'validating' until its module is in (src/store/labState.ts).
    await this.page.waitForFunction(
      () =>
        window.__deliveryLab !== undefined &&
        !['running', 'validating'].includes(window.__deliveryLab.status()),
    );
    await expect(this.byId(testIds.runStatus)).not.toHaveAttribute(
      'data-status',
      /^(running|validating)$/,
    );
  }

  /** Load a preset through the scenario picker, as a user does. */
  async pickPreset(ref: string): Promise<void> {
    await this.byId(testIds.scenarioPicker).selectOption(
      ref.includes('/') ? ref : `${ref}/default`,
    );
    await this.settled();
  }

  /**
   * Skip "Predict first" on an open preset as shipped (its verdict, explanations, final fates,
   * story and run diagrams wait for the answer): the verdict's "Show the answer".
   */
  async showOutcome(): Promise<void> {
    const hidden = this.page.locator(
      `[data-testid="${testIds.outcomeHidden}"][data-what="verdict"]`,
    );
    await hidden.getByRole('button', { name: 'Show the answer' }).click();
    // Told, the final verdict still waits for the end of the run: "Reveal now" shows it at once.
    const now = this.page.locator(
      `[data-testid="${testIds.outcomeHidden}"][data-what="verdict"] [data-testid="${testIds.outcomeRevealNow}"]`,
    );
    if (await now.isVisible()) await now.click();
    await expect(this.byId(testIds.verdict)).toBeVisible();
  }

  /**
   * Skip an open preset's "Predict first" with its "Show the answer", as a teacher who does not
   * ask it: Play, End and any move onto the run's end wait for the question (issue 24). Unlike
   * {@link showOutcome}, the final verdict still waits for the end of the run.
   */
  async skipQuestion(): Promise<void> {
    // Play says it waits (aria-disabled) exactly while a question does; nothing asked, nothing to do.
    const play = this.byId(testIds.play);
    if ((await play.getAttribute('aria-disabled')) !== 'true') return;
    // From the keyboard, so that keyboard-only specs stay so.
    const show = this.byId(testIds.outcomeShow).filter({ visible: true });
    // Projector mode's band has the question box's own (the verdict's card waits off screen).
    const button = (await show.count()) > 0 ? show.first() : this.byId(testIds.predictReveal);
    await button.focus();
    await this.page.keyboard.press('Enter');
    await expect(play).not.toHaveAttribute('aria-disabled', 'true');
  }

  /** Import files as a user picks them (Import, then its file picker) and wait for the dialog to close. */
  async importFiles(files: PickedFiles): Promise<void> {
    await this.byId(testIds.importButton).click();
    await this.byId(testIds.importFile).setInputFiles(files);
    await expect(this.byId(testIds.importDialog)).toBeHidden();
  }

  /** Switch the guarantee with the switch (the first control). */
  async setGuarantee(label: 'At-most-once' | 'At-least-once' | 'Exactly-once'): Promise<void> {
    await this.byId(testIds.guaranteeSwitch).getByText(label, { exact: true }).click();
    await this.settled();
  }

  timeline(): Locator {
    return this.byId(testIds.timeline);
  }

  /** Move the cursor to the end of the run with the timeline's keyboard (End). */
  async toEnd(): Promise<void> {
    await this.timeline().focus();
    await this.page.keyboard.press('End');
    await expect(this.byId(testIds.counterMissing)).toHaveAttribute('data-final', 'true');
  }

  /** Move the cursor to the start (Home on the timeline). */
  async toStart(): Promise<void> {
    await this.timeline().focus();
    await this.page.keyboard.press('Home');
  }

  /** Delete every fault marker with the keyboard (focus it, press Delete). */
  async deleteAllFaults(): Promise<void> {
    const markers = this.byId(testIds.faultMarker);
    for (let n = await markers.count(); n > 0; n--) {
      await markers.first().focus();
      await this.page.keyboard.press('Delete');
      await this.settled();
      await expect(markers).toHaveCount(n - 1);
    }
  }

  component(id: string): Locator {
    return this.page.locator(`[data-testid="${testIds.component}"][data-component="${id}"]`);
  }

  /** Open a component's fault menu and choose an action by its id. */
  async fault(component: string, action: string): Promise<void> {
    await this.component(component).locator('.component-head').first().click();
    const item = this.byId(testIds.faultMenu).locator(`[data-action="${action}"]`);
    await item.click();
    await this.settled();
  }

  /** The counters as shown on the page. */
  async shown(): Promise<ShownCounters> {
    const num = async (id: string, attr = 'data-value') =>
      Number(await this.byId(id).getAttribute(attr));
    return {
      sent: await num(testIds.counterSent),
      rows: await num(testIds.counterRows),
      duplicates: await num(testIds.counterDuplicates),
      missing: await num(testIds.counterMissing),
      final: (await this.byId(testIds.counterMissing).getAttribute('data-final')) === 'true',
      sum: await num(testIds.counterSum),
      doubleCounted: await num(testIds.counterSum, 'data-double'),
    };
  }

  /** Counters from the API (the view model), for cross-checks. */
  async apiCounters(): Promise<TestCounters> {
    return this.api('counters');
  }
}

/**
 * `test` with a ready dashboard (`dash`), or one whose page the test opens itself at its own
 * address (`unopenedDash`: no first load of the default page to throw away).
 */
export const test = base.extend<{ dash: Dashboard; unopenedDash: Dashboard }>({
  dash: async ({ page }, use) => {
    const dash = new Dashboard(page);
    await dash.goto();
    await use(dash);
  },
  unopenedDash: async ({ page }, use) => {
    await use(new Dashboard(page));
  },
});

export { expect, testIds };
