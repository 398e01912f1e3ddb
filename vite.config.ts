import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

// Content-Security-Policy: index.html's meta policy (script-src 'self', no inline script) applies
// to the built page as written. The dev server needs no change either: Vite injects its client and
// React Fast Refresh's inline preamble at the top of <head>, before the meta tag, and a meta policy
// governs only what follows it, so those two dev-only scripts run while everything after them (the
// app's modules, hot updates, HMR's same-origin websocket) is held to the policy.
export default defineConfig({
  // Relative asset URLs: the build works from any path on any static host.
  base: './',
  plugins: [react()],
  server: { port: 5173 },
  preview: { port: 4173 },
  test: {
    passWithNoTests: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          // *.prop.test.ts is matched by the first glob already; listed for the reader.
          include: ['src/**/*.test.{ts,tsx}', 'src/**/*.prop.test.ts'],
          exclude: [
            ...configDefaults.exclude,
            'e2e/**',
            'src/ui/**/*.test.tsx',
            'src/store/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/ui/**/*.test.tsx', 'src/store/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'e2e/**'],
        },
      },
    ],
  },
});
