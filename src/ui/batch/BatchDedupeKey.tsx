/**
 * The job's dedupe key (issue 26 §2: every dedupe mechanism offers it): the event id or a tuple of
 * content columns, set as the knob `batch.dedupeKey` (one undoable edit). The lab's page only (an
 * embed is the author's job as written), loaded by ./BatchRun.tsx as a chunk of its own: the knob
 * table it reads is not in the batch embed's first load (issue 31).
 */
import { useId } from 'react';
import { knobMeta } from '../../views/edit/knobs';
import type { KeyValue } from '../../views/edit/knobsKey';
import { KeyControl } from '../panels/KeyControl';

export function BatchDedupeKey({
  value,
  onSet,
}: {
  value: unknown;
  onSet: (key: KeyValue) => void;
}) {
  const id = useId();
  const meta = knobMeta('batch.dedupeKey')!;
  if (meta.editor.type !== 'key') return null;
  return (
    <p className="batch-key" data-testid="batch-dedupe-key">
      <label htmlFor={id} title={meta.what}>
        Dedupe key
      </label>{' '}
      <KeyControl
        id={id}
        name={meta.name}
        value={value}
        options={meta.editor.options}
        columns={meta.editor.columns}
        onSet={onSet}
      />
    </p>
  );
}
