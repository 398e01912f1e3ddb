/**
 * A dedupe key's editor: a select between the identifying columns and "content tuple…", and,
 * for a tuple, a checkbox per content column (never empty). The rules are
 * src/views/edit/knobsKey.ts; the Knobs tab (sink.key) and a batch job's setup (batch.dedupeKey)
 * both use it.
 */
import {
  CONTENT_TUPLE,
  isContentKey,
  keyForOption,
  toggleColumn,
  type KeyValue,
} from '../../views/edit/knobsKey';

export function KeyControl({
  id,
  name,
  value,
  options,
  columns,
  onSet,
}: {
  id: string;
  /** The knob's name, for the columns' group label. */
  name: string;
  value: unknown;
  options: readonly string[];
  columns: readonly string[];
  onSet: (key: KeyValue) => void;
}) {
  const tuple = isContentKey(value) ? value : null;
  return (
    <span className="field key-editor">
      <select
        id={id}
        value={tuple ? CONTENT_TUPLE : String(value ?? options[0])}
        onChange={(ev) => onSet(keyForOption(ev.target.value, value, columns))}
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
        <option value={CONTENT_TUPLE}>content tuple…</option>
      </select>
      {tuple && (
        <span role="group" aria-label={`${name}: content columns`}>
          {columns.map((c) => (
            <label key={c} className="field">
              <input
                type="checkbox"
                data-column={c}
                checked={tuple.includes(c)}
                // A key has one column at least: the last one stays.
                disabled={tuple.length === 1 && tuple.includes(c)}
                onChange={(ev) => {
                  const next = toggleColumn(tuple, c, ev.target.checked, columns);
                  if (next) onSet(next);
                }}
              />
              {c}
            </label>
          ))}
        </span>
      )}
    </span>
  );
}
