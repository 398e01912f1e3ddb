import { describe, expect, it } from 'vitest';
import { FOLDER_ENTRY_LIMIT, folderOfDrop } from './folderFiles';

/** A file entry as Chromium hands one out, its File given on request. */
const fileEntry = (fullPath: string, text: string) => ({
  isDirectory: false,
  isFile: true,
  name: fullPath.split('/').pop()!,
  fullPath,
  file: (ok: (f: File) => void) => ok(new File([text], fullPath.split('/').pop()!)),
});

/** A folder entry whose reader hands out `batches` one per call, then none (as readEntries does). */
const dirEntry = (fullPath: string, batches: unknown[][]) => ({
  isDirectory: true,
  isFile: false,
  name: fullPath.split('/').pop()!,
  fullPath,
  createReader: () => {
    const left = [...batches];
    return { readEntries: (ok: (e: unknown[]) => void) => ok(left.shift() ?? []) };
  },
});

/** A folder that must not be walked into: reading it fails the test. */
const untouchable = (fullPath: string) => ({
  ...dirEntry(fullPath, []),
  createReader: () => {
    throw new Error(`${fullPath} was walked into`);
  },
});

const drop = (...entries: unknown[]) =>
  ({
    items: entries.map((e) => ({ kind: 'file', webkitGetAsEntry: () => e })),
  }) as unknown as DataTransfer;

describe('a folder dropped on the page', () => {
  it('is walked through every batch of its entries; dot folders and build output passed over, unread', async () => {
    const models = dirEntry('/shop/models', [[fileEntry('/shop/models/orders.sql', 'select 1')]]);
    const shop = dirEntry('/shop', [
      [fileEntry('/shop/dbt_project.yml', 'name: shop'), untouchable('/shop/.git')],
      [models, untouchable('/shop/target')],
    ]);
    const r = await folderOfDrop(drop(shop));
    expect(r).toMatchObject({ ok: true, name: 'shop', passedOver: ['.git/', 'target/'] });
    if (!r?.ok) return;
    expect(r.files.map((f) => f.path)).toEqual(['shop/dbt_project.yml', 'shop/models/orders.sql']);
    expect(await r.files[1]!.text()).toBe('select 1');
  });

  it('a drop of files alone is no folder; a folder with other items is refused in words', async () => {
    expect(folderOfDrop(drop(fileEntry('/a.properties', 'acks=all')))).toBeNull();
    const r = await folderOfDrop(
      drop(dirEntry('/svc', []), fileEntry('/a.properties', 'acks=all')),
    );
    expect(r).toEqual({
      ok: false,
      line: 'svc: drop one folder on its own, or files without a folder',
    });
  });

  it(`stops past ${FOLDER_ENTRY_LIMIT} entries, naming the folder`, async () => {
    const many = Array.from({ length: FOLDER_ENTRY_LIMIT + 1 }, (_, i) =>
      fileEntry(`/repo/f${i}.txt`, ''),
    );
    const r = await folderOfDrop(drop(dirEntry('/repo', [many])));
    expect(r).toMatchObject({ ok: false });
    if (r && !r.ok) expect(r.line).toMatch(/^repo: more than 5000 files and folders/);
  });
});
