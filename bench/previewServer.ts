/**
 * A production build served by `vite preview` on 127.0.0.1 for the browser measures
 * (bench/ui.bench.ts, scripts/embed-waterfall.ts): started, waited for until its page answers,
 * and stopped by the caller.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** How long the server is waited for: 100 tries 100 ms apart. */
const TRIES = 100;

/**
 * Serves `dist` on `port` (`--strictPort`: a port in use is an error, not another port) and
 * resolves once `http://127.0.0.1:<port>/` answers; kills the server and throws if it never does.
 */
export async function startPreview(dist: string, port: number): Promise<ChildProcess> {
  const root = join(import.meta.dirname, '..');
  const child = spawn(
    process.execPath,
    [
      join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'preview',
      '--outDir',
      dist,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--strictPort',
    ],
    { cwd: root, stdio: 'ignore' },
  );
  const base = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < TRIES; i++) {
    const up = await fetch(base).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`vite preview did not start on port ${port}`);
}
