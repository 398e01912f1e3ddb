import { Fragment } from 'react';
import { countersAt, lifeAt } from '../../../views/run/at';
import { formatCount, formatMoney, moneyOffWords } from '../../../views/run/format';
import { testIds } from '../../testIds';
import { ComponentBox } from '../ComponentBox';
import { useCondensedCards } from '../condensedCards';
import { RowTable } from '../RowTable';
import { cardWords } from './cardWords';
import type { StageProps } from './stageProps';
import { useLandmarkName } from '../../landmarkName';

/** Downstream readers (their own tables), or what a reader of the sink table sees. */
export function ReaderStage({ view, idx, t }: StageProps) {
  const readers = view.tables.filter((x) => x.point.startsWith('reader:'));
  const c = countersAt(view, idx);
  // Condensed, "a report reading …" is said by "⑤ Reader": kept for screen readers.
  const condensed = useCondensedCards();
  const landmark = useLandmarkName();
  return (
    <section
      className="stage"
      aria-label="Downstream reader"
      {...landmark}
      data-testid={testIds.readerPanel}
    >
      <h2>⑤ Reader</h2>
      {readers.map((tb) => {
        const i = view.scenario.readers.findIndex((r) => `reader:${r.name}` === tb.point);
        const name = `reader-${i}`;
        return (
          <ComponentBox
            key={tb.point}
            id={name}
            anchor={name}
            life={lifeAt(view, view.actors.indexOf(name), idx, t).life}
            title={
              // Name and isolation level on lines of their own: "read_uncommitted" alone fills
              // the narrow column (and breaks after its "_" beside the projector's story).
              <span className="reader-title">
                <span className="mono">{view.scenario.readers[i]?.name ?? tb.label}</span>
                {view.scenario.readers[i] && (
                  <span className="mono reader-iso">
                    {breakAfterUnderscores(view.scenario.readers[i]['isolation.level'])}
                  </span>
                )}
              </span>
            }
          >
            <RowTable
              view={view}
              table={tb}
              idx={idx}
              testId={`${testIds.sinkTable}-${i}`}
              compact
            />
          </ComponentBox>
        );
      })}
      {readers.length === 0 && (
        <div className="component">
          <div style={{ fontWeight: 600 }} className={condensed ? 'visually-hidden' : undefined}>
            {cardWords(`a report reading ${view.verdict.primaryLabel}`)}
          </div>
          <div className="mono" style={{ fontSize: '0.86em' }}>
            {cardWords('SELECT count(*), sum(amount)')}
          </div>
          <dl className="kv">
            {/* Each figure whole: a narrow column (the projector's) wraps before it ("sum
                $426,|500" broke inside it). */}
            <dt>count</dt>
            <dd>
              <span className="figure">{formatCount(c.rows)}</span>
            </dd>
            <dt>sum</dt>
            <dd>
              <span className="figure">{formatMoney(c.sum)}</span>
            </dd>
            <dt>should be</dt>
            <dd>
              {/* The events sent so far and their amounts (the total only once all are sent).
                  Each figure whole: a narrow column wraps between them, never inside one. */}
              <span className="figure">{formatCount(c.expectedRows)}</span> ·{' '}
              <span className="figure">{formatMoney(c.sentAmount)}</span>
            </dd>
          </dl>
          {c.sum !== c.trueSum && c.final && (
            <p
              className="fate duplicated"
              // A narrow reader column beside the story: the words wrap, the amount stays whole
              // (breaking anywhere split it mid-figure: "$112,75 / 0").
              // Block, not .fate's inline-flex: as flex items the amount could not go to the next line.
              style={{ margin: '0.3em 0 0', whiteSpace: 'normal', display: 'block' }}
            >
              <span aria-hidden="true">⚠</span> the report is{' '}
              <span className="figure">{moneyOffWords(c.sum, c.trueSum)}</span>
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * An isolation level that may break after its "_" ("read_|uncommitted" in the projector page's
 * 161 px column) by a <wbr>: its text stays "read_uncommitted" (cardWords' zero-width space
 * would be a character of it).
 */
function breakAfterUnderscores(level: string) {
  return level.split(/(?<=_)/).map((part, k) => (
    <Fragment key={k}>
      {k > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}
