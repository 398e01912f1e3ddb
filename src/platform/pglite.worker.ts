/// <reference lib="webworker" />
/**
 * "Run on a real PostgreSQL": PGlite (PostgreSQL compiled to WebAssembly, https://pglite.dev) in
 * this worker, its own chunk that the page loads only on request. Its three assets are fetched
 * here, so the page can show the download's progress, and handed to PGlite as
 * `pgliteWasmModule` / `initdbWasmModule` / `fsBundle` (https://pglite.dev/docs/api#options);
 * Vite's `?url` imports put them in the build's assets, addressed relative to this chunk, so the
 * build works under any sub-path. One job per worker: the client terminates it to cancel.
 */
import { PGlite } from '@electric-sql/pglite';
import initdbWasmUrl from '@electric-sql/pglite/initdb.wasm?url';
import fsBundleUrl from '@electric-sql/pglite/pglite.data?url';
import pgliteWasmUrl from '@electric-sql/pglite/pglite.wasm?url';
import { checkOnDatabase } from '../views/io/sqlOnDatabase';
import type { PgliteReply, PgliteRequest } from './realDatabase';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (m: PgliteReply) => scope.postMessage(m);

/** Fetch the three assets at once, reporting bytes received (and the total when the server says). */
async function download(urls: string[]): Promise<Uint8Array<ArrayBuffer>[]> {
  const loaded = urls.map(() => 0);
  const sizes = urls.map(() => 0);
  const report = () => {
    const total = sizes.every((s) => s > 0) ? sizes.reduce((a, b) => a + b, 0) : null;
    post({ type: 'progress', phase: 'download', loaded: loaded.reduce((a, b) => a + b, 0), total });
  };
  return Promise.all(
    urls.map(async (url, i) => {
      const absolute = new URL(url, import.meta.url).href;
      const res = await fetch(absolute).catch((e: unknown) => {
        throw new Error(`could not fetch ${absolute}: ${e instanceof Error ? e.message : e}`);
      });
      if (!res.ok || !res.body) throw new Error(`could not fetch ${absolute}: HTTP ${res.status}`);
      sizes[i] = Number(res.headers.get('content-length') ?? 0);
      const parts: Uint8Array[] = [];
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        loaded[i]! += value.byteLength;
        report();
      }
      const out = new Uint8Array(loaded[i]!);
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.byteLength;
      }
      return out;
    }),
  );
}

scope.onmessage = async (e: MessageEvent<PgliteRequest>) => {
  try {
    const [pglite, initdb, data] = await download([pgliteWasmUrl, initdbWasmUrl, fsBundleUrl]);
    post({ type: 'progress', phase: 'start' });
    const db = await PGlite.create({
      pgliteWasmModule: await WebAssembly.compile(pglite!),
      initdbWasmModule: await WebAssembly.compile(initdb!),
      fsBundle: new Blob([data!]),
    });
    post({ type: 'progress', phase: 'run' });
    const started = performance.now();
    const result = await checkOnDatabase(e.data.scenario, db);
    post({ type: 'done', result, ms: performance.now() - started });
    await db.close();
  } catch (error) {
    post({
      type: 'done',
      result: { ok: false, error: error instanceof Error ? error.message : String(error) },
      ms: 0,
    });
  }
};
