/**
 * Shared helpers for the library specs (library*.spec.ts): the library's parts by test id, the
 * preset in the URL, playing to the end as a user does, and one event's n-th copy in the sink.
 */
import type { Page } from '@playwright/test';
import { expect, testIds, type Dashboard } from './fixtures';

/** The library's parts, by test id. */
export function lib(dash: Dashboard) {
  const { page } = dash;
  return {
    dialog: dash.byId(testIds.libraryDialog),
    search: dash.byId(testIds.librarySearch),
    cards: dash.byId(testIds.libraryCard),
    card: (id: string) =>
      page.locator(`[data-testid="${testIds.libraryCard}"][data-preset="${id}"]`),
    story: dash.byId(testIds.storyPanel),
    variant: (id: string) =>
      page.locator(`[data-testid="${testIds.storyVariant}"][data-variant="${id}"]`),
    answer: dash.byId(testIds.predictAnswer),
  };
}

/** The `?preset=` of the page's URL. */
export function presetInUrl(page: Page): string | null {
  return new URL(page.url()).searchParams.get('preset');
}

/** Play to the end with the transport, as a user does: speed slider to its top, then Play. */
export async function playToEnd(dash: Dashboard): Promise<void> {
  await dash.byId(testIds.speed).focus();
  await dash.page.keyboard.press('End');
  await dash.byId(testIds.play).click();
  await expect(dash.byId(testIds.counterMissing)).toHaveAttribute('data-final', 'true');
  await dash.page.waitForFunction(() => {
    const c = window.__deliveryLab!.cursor();
    return c.idx >= c.n && c.t >= c.endTime;
  });
}

/** The sink rows of one business event's n-th copy. */
export function copyRow(dash: Dashboard, event: string, copy: number) {
  return dash
    .byId(testIds.sinkTable)
    .locator(`[data-testid="${testIds.sinkRow}"][data-event="${event}"][data-copy="${copy}"]`);
}
