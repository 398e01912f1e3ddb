/**
 * Importing a configuration file in the page: one undoable load, a notice saying which keys were
 * applied and which ignored; a bad file refused naming its line, the open work untouched.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ArtifactClient } from '../../platform/runClient';
import { LabProvider } from '../../store/LabContext';
import { LibraryProvider } from '../library/LibraryContext';
import { testIds } from '../testIds';
import { presetLab } from '../testLab';
import { IoTools } from './IoTools';
import { createNotices } from './notices';
import { PageProvider } from './PageContext';

async function mount() {
  const lab = presetLab('at-least-once');
  const notices = createNotices();
  const artifacts: ArtifactClient = { get: vi.fn(), dispose: () => {} };
  render(
    <LabProvider lab={lab}>
      <PageProvider page={{ notices, artifacts, shareLink: null }}>
        <LibraryProvider>
          <IoTools />
        </LibraryProvider>
      </PageProvider>
    </LabProvider>,
  );
  await act(() => lab.actions.settled());
  return { lab, notices };
}

const pick = (name: string, text: string) =>
  act(async () => {
    fireEvent.change(screen.getByTestId(testIds.importFile), {
      target: { files: [new File([text], name, { type: 'text/plain' })] },
    });
  });

describe('Import of a configuration file', () => {
  afterEach(cleanup);

  it('opens it as one undoable load with a notice of the keys taken', async () => {
    const { lab, notices } = await mount();
    const before = lab.app.getState().scenario;
    fireEvent.click(screen.getByTestId(testIds.importButton));
    await pick('producer.properties', 'acks=1\nenable.idempotence=false\nlinger.ms=5\n');
    await waitFor(() => expect(lab.app.getState().scenario.producer?.acks).toBe(1), {
      timeout: 10_000,
    });
    expect(lab.app.getState().scenario.producer?.['enable.idempotence']).toBe(false);
    const n = notices.store.getState().items.at(-1)!;
    // acks, enable.idempotence and linger.ms all set producer knobs: 3 applied, none ignored.
    expect(n.text).toMatch(/^From “producer\.properties”: 3 keys applied, 0 ignored/);
    // …and the workload's settings the file left unset, and its sink, after them.
    expect(
      n.lines?.filter(
        (l) => !l.startsWith('kept from the workload:') && !l.startsWith('sink kept from'),
      ),
    ).toHaveLength(3);
    act(() => lab.actions.undo());
    expect(lab.app.getState().scenario).toEqual(before);
  });

  // The page said "Configuration claims: Exactly-once" after Import, though the files claimed
  // nothing: the claim was the workload template's.
  it('says whose the claim is, and sets the one chosen without touching the knobs', async () => {
    const { lab, notices } = await mount();
    fireEvent.click(screen.getByTestId(testIds.importButton));
    await pick('producer.properties', 'acks=1\nenable.idempotence=false\n');
    await waitFor(() => expect(lab.app.getState().scenario.producer?.acks).toBe(1), {
      timeout: 10_000,
    });
    const claim = notices.store.getState().items.find((n) => n.text.startsWith('The verdict'))!;
    expect(claim.text).toBe(
      'The verdict checks exactly-once: the claim of the workload lost-ack-retry/idempotence-on, not of your files — a configuration claims no guarantee. Which does your pipeline promise?',
    );
    expect(claim.actions?.map((x) => x.label)).toEqual([
      'at-most-once',
      'at-least-once',
      'Keep exactly-once',
    ]);
    act(() => {
      claim.actions![1]!.run();
    });
    const s = lab.app.getState().scenario;
    expect(s.claim).toBe('at-least-once');
    // The claim alone: the files' knobs stay (the top bar's switch would apply a recipe).
    expect([s.producer?.acks, s.producer?.['enable.idempotence']]).toEqual([1, false]);
    // One undo step.
    act(() => lab.actions.undo());
    expect(lab.app.getState().scenario.claim).toBe('exactly-once');
  });

  // The dialog was titled "Import a scenario or a lesson": an engineer with a producer.properties
  // read past the one place that takes it.
  it("the dialog's title offers your configuration", async () => {
    await mount();
    fireEvent.click(screen.getByTestId(testIds.importButton));
    const title = screen.getByTestId(testIds.importDialog).getAttribute('aria-labelledby')!;
    expect(document.getElementById(title)?.textContent).toBe(
      'Import a scenario, a lesson or your configuration',
    );
  });

  // The file input takes several (a producer's, a consumer's and the sink's .sql together), as
  // the dialog's text says; its label said "Choose a file".
  it("the file input's label says it takes several files", async () => {
    await mount();
    fireEvent.click(screen.getByTestId(testIds.importButton));
    const input = screen.getByLabelText(
      'Choose one file or several, or drop them (or a folder) here:',
    );
    expect(input).toBe(screen.getByTestId(testIds.importFile));
    expect(input.hasAttribute('multiple')).toBe(true);
    // And a folder's picker beside it, named for what engineers keep in folders.
    const folder = screen.getByLabelText(
      "…or a folder (a dbt project, an Airflow dags/ folder, a service's config/):",
    );
    expect(folder).toBe(screen.getByTestId(testIds.importFolder));
    expect(folder.hasAttribute('webkitdirectory')).toBe(true);
  });

  it('refuses a bad file naming its line, the open work untouched', async () => {
    const { lab, notices } = await mount();
    const before = lab.app.getState().scenario;
    fireEvent.click(screen.getByTestId(testIds.importButton));
    await pick('producer.properties', 'acks=1\nretries=many\n');
    const errors = await screen.findByTestId(testIds.importErrors);
    expect(errors.textContent).toContain('“producer.properties” is not a valid configuration');
    expect(errors.textContent).toContain('producer.properties:2: retries: expected an integer');
    expect(lab.app.getState().scenario).toBe(before);
    expect(notices.store.getState().items).toEqual([]);
  });

  // docs/page.md: configuration files are "picked together or dropped, or pasted"; the paste
  // box's label offered scenario JSON and links only, so the paste was found by chance.
  it('takes pasted configuration lines, and its label says so', async () => {
    const { lab } = await mount();
    fireEvent.click(screen.getByTestId(testIds.importButton));
    const box = screen.getByLabelText(/paste .*configuration \(producer\.properties/);
    fireEvent.change(box, { target: { value: 'acks=1\nenable.idempotence=false\n' } });
    fireEvent.click(screen.getByTestId(testIds.importSubmit));
    await waitFor(() => expect(lab.app.getState().scenario.producer?.acks).toBe(1), {
      timeout: 10_000,
    });
  });
});

// The status line quoted the scenario's name, which for configuration files is their names again
// and the workload's title in quotes — `Imported “sink.sql on "A lost…"” from “sink.sql”` — cut
// at 80 characters. It names the files, once.
describe('The status line after importing several files', () => {
  afterEach(cleanup);

  it('a scenario file’s long name is cut at 80 characters, with an ellipsis', async () => {
    const { lab } = await mount();
    fireEvent.click(screen.getByTestId(testIds.importButton));
    const name = `A long name ${'x'.repeat(100)}`;
    const file = new File(
      [JSON.stringify({ version: 1, name, workload: { generate: { count: 3 } } })],
      'long.json',
      {
        type: 'application/json',
      },
    );
    await act(async () => {
      fireEvent.change(screen.getByTestId(testIds.importFile), { target: { files: [file] } });
    });
    await waitFor(() => expect(lab.app.getState().notice).toMatch(/^Imported /), {
      timeout: 10_000,
    });
    const quoted = /^Imported “(.*)” from “long.json”/.exec(lab.app.getState().notice ?? '')![1]!;
    expect(quoted).toHaveLength(80);
    expect(quoted.endsWith('…')).toBe(true);
    expect(name.startsWith(quoted.slice(0, -1))).toBe(true);
  });

  it('names the files once, not the scenario made of them', async () => {
    const { lab } = await mount();
    fireEvent.click(screen.getByTestId(testIds.importButton));
    const files = [
      new File(['acks=all\n'], 'producer.properties', { type: 'text/plain' }),
      new File(['group.id=payments-writer\nenable.auto.commit=false\n'], 'consumer.properties', {
        type: 'text/plain',
      }),
      new File(
        ['INSERT INTO payments VALUES ($1) ON CONFLICT (payment_id) DO NOTHING;\n'],
        'sink.sql',
        {
          type: 'text/plain',
        },
      ),
    ];
    await act(async () => {
      fireEvent.change(screen.getByTestId(testIds.importFile), { target: { files } });
    });
    await waitFor(() => expect(lab.app.getState().notice).toMatch(/^Imported /), {
      timeout: 10_000,
    });
    expect(lab.app.getState().notice).toBe(
      'Imported “producer.properties” + “consumer.properties” + “sink.sql” — Undo (Ctrl+Z) goes back.',
    );
  });
});
