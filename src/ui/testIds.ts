/**
 * Test ids shared by the app and the Playwright specs (e2e/), so a renamed id breaks the
 * type-check rather than silently breaking a selector.
 */
export const testIds = {
  app: 'app',
  appHeading: 'app-heading',
  appPlaceholder: 'app-placeholder',
  errorBoundary: 'error-boundary',
  errorReload: 'error-reload',
} as const;

export type TestId = (typeof testIds)[keyof typeof testIds];
