/**
 * Screenshots for a person to look at, not checked by any assertion: taken only when E2E_SHOTS
 * names a directory (`E2E_SHOTS=test-results npx playwright test e2e/atlas.spec.ts`). Each costs
 * a frame's capture and a PNG encode, ~0.3–1 s on a loaded 2-core CI machine, for a file nobody
 * opens after a passing run.
 */
import type { Page } from '@playwright/test';

const dir = process.env.E2E_SHOTS;

/** Save the viewport as `<E2E_SHOTS>/<name>.png` when E2E_SHOTS is set; else nothing. */
export async function shot(page: Page, name: string): Promise<void> {
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}
