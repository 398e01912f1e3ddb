/**
 * The `delivery-lab` executable (package.json `bin`, built into dist-cli/delivery-lab.mjs by
 * vite.cli.config.ts; `npm run sim` runs this file through tsx). Loaded again by each worker
 * thread of a fault atlas (./atlasThreads.ts), where it serves the atlas instead.
 */
import module from 'node:module';
import os from 'node:os';
import { isMainThread } from 'node:worker_threads';
import { visibleControls } from './visibleControls';
import { dispatch } from './dispatch';
import { terminalStatus } from './progress';
import { setThreadEntry, threadCount } from './threadEntry';

async function runExecutable(): Promise<void> {
  // Node ≥ 22.1 keeps V8's compiled code of the chunks in a cache on disk (os.tmpdir(), or
  // NODE_COMPILE_CACHE), so a later run skips compiling them; the call never throws, and Node 20 has
  // no such cache for ES modules (the method is absent, nothing happens):
  // https://nodejs.org/api/module.html#moduleenablecompilecachecachedir
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

  // A reader that stops early (`| head`, `2>&1 | head`) closes the pipe: that is not an error of
  // ours. The exit code is still the run's (0 ran, 3 mismatch…), set below before any late write.
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  const threads = threadCount(process.env.DELIVERY_LAB_THREADS, os.availableParallelism());
  if (typeof threads !== 'number') {
    process.stderr.write(`${threads.problem}\n`);
    process.exitCode = 2;
    return;
  }
  setThreadEntry(import.meta.url, threads);
  let code: number;
  try {
    code = await dispatch(
      process.argv.slice(2),
      (s) => process.stdout.write(s),
      (s) => process.stderr.write(`${visibleControls(s)}\n`),
      process.stderr.isTTY ? terminalStatus((s) => process.stderr.write(s)) : undefined,
    );
  } catch (e) {
    process.stderr.write(`internal error: ${(e as Error).stack ?? String(e)}\n`);
    code = 1;
  }
  process.exitCode = code;
}

if (isMainThread) await runExecutable();
else (await import('./atlasThread')).serveAtlasThread();
