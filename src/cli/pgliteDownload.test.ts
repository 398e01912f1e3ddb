// The download the page states before "Run on a real PostgreSQL" (src/views/io/sqlOnDatabase.ts),
// held to the PGlite package's files: a PGlite upgrade that changes them fails here.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { PGLITE_DOWNLOAD_MB } from '../views/io/sqlOnDatabase';

describe('the download the page states', () => {
  it("is PGlite's pglite.wasm + initdb.wasm + pglite.data, to 0.1 MB", () => {
    const require = createRequire(import.meta.url);
    const bytes = ['pglite.wasm', 'initdb.wasm', 'pglite.data']
      .map((f) => statSync(require.resolve(`@electric-sql/pglite/${f}`)).size)
      .reduce((a, b) => a + b, 0);
    // 9,118,807 + 298,788 + 6,241,295 = 15,658,890 bytes ≈ 15.7 MB (0.5.17).
    expect(Math.abs(bytes / 1e6 - PGLITE_DOWNLOAD_MB)).toBeLessThanOrEqual(0.05);
  });
});
