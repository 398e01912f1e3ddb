/**
 * The embedded player (`?embed`) on a batch job: the scheduler strip and the table by partition
 * of the page's batch panel (./BatchRun.tsx), the summary line as its verdict at the end, with the
 * author's options that apply to a batch job — caption, autoplay, lock (no click on an attempt,
 * no guarantee switch), the `why` panel, the layout (compact: the dates stacked). Its own lazy
 * chunk: a stream embed does not fetch it. Sized to its content, as the stream player is.
 */
import { useMemo, useRef } from 'react';
import { encodeShare } from '../../platform/share';
import type { LabState } from '../../store/labStore';
import { useLab } from '../../store/LabContext';
import { GuaranteeRadios } from '../GuaranteeRadios';
import { NoticeBar } from '../io/NoticeBar';
import { testIds } from '../testIds';
import type { EmbedOptions } from '../embed/embedOptions';
import { useCompact } from '../embed/useCompact';
import { useReportHeight } from '../embed/useReportHeight';
import { BatchRun } from './BatchRun';
import './batch.css';

const selectScenario = (s: LabState) => s.scenario;
const selectStatus = (s: LabState) => s.status;

export function BatchEmbed({ options }: { options: EmbedOptions }) {
  const scenario = useLab(selectScenario);
  const status = useLab(selectStatus);
  const root = useRef<HTMLDivElement>(null);
  const compact = useCompact(options.layout);
  useReportHeight(root, options.frameId);
  const fullHref = useMemo(() => `./#${encodeShare(scenario)}`, [scenario]);
  const embed = useMemo(
    () => ({
      locked: options.lock,
      autoplay: options.autoplay,
      why: options.panels.includes('why'),
    }),
    [options],
  );
  return (
    <div
      ref={root}
      className="embed embed-batch"
      data-testid={testIds.embedPlayer}
      data-status={status}
      data-locked={options.lock}
      data-layout={compact ? 'compact' : 'full'}
      style={options.height !== null ? { height: options.height, overflowY: 'auto' } : undefined}
    >
      <NoticeBar />
      <header className="embed-head">
        <h1 className={options.caption ? 'embed-caption' : 'embed-caption muted'}>
          {options.caption || scenario.name}
        </h1>
        <span className="spacer" />
        {!options.lock && <GuaranteeRadios name="embed-guarantee" />}
        <a href={fullHref} target="_blank" rel="noopener noreferrer" className="embed-open">
          Open in Delivery Lab ↗
        </a>
      </header>
      <BatchRun embed={embed} />
    </div>
  );
}
