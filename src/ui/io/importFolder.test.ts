import { describe, expect, it } from 'vitest';
import type { FolderFile } from '../../scenarios/config/configFolder';
import { importFolder } from './importFolder';
import producer from '../../scenarios/config/examples/producer.properties?raw';

const file = (path: string, text: string): FolderFile => ({
  path,
  size: text.length,
  text: () => Promise.resolve(text),
});

describe("a folder in the page's Import", () => {
  it('opens its one pipeline, the notice naming the folder, the paths read and what was passed over', async () => {
    const r = await importFolder(
      'svc',
      [file('svc/config/producer.properties', producer), file('svc/target/x.properties', 'acks=0')],
      ['.git/'],
    );
    if ('kind' in r || !r.ok) throw new Error('not opened');
    expect(r.from).toBe('“producer.properties” from the folder “svc”');
    expect(r.config!.lines.at(-1)).toBe(
      'Folder “svc”: read config/producer.properties; passed over .git/, target/',
    );
    expect(r.input.producer?.acks).toBe(1); // acks = 1, the file's
  });

  it('a folder of several models is a choice for the dialog; one of nothing is refused with its heading', async () => {
    const model = (name: string) =>
      file(`shop/models/${name}.sql`, "{{ config(unique_key='id') }}");
    const choice = await importFolder('shop', [model('a'), model('b')]);
    expect(choice).toMatchObject({ kind: 'choose', what: '2 dbt models' });
    const none = await importFolder('notes', [file('notes/x.yml', 'a: 1')]);
    expect(none).toMatchObject({
      ok: false,
      from: 'the folder “notes”',
      heading: 'Not imported: the folder “notes” holds no configuration the lab reads.',
    });
  });
});
