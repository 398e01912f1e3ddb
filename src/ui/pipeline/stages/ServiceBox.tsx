import { useMemo } from 'react';
import { effectsAt } from '../../../views/run/at';
import { formatCountOf, formatMoney, formatMs } from '../../../views/run/format';
import { eventIdOf, type RunView } from '../../../views/run/runView';
import { ComponentBox } from '../ComponentBox';

/** The external service a sink or side effect calls: what it has sent or charged so far. */
export function ServiceBox({ view, idx }: { view: RunView; idx: number }) {
  const fx = useMemo(() => effectsAt(view, idx), [view, idx]);
  const svc =
    view.scenario.sink.type === 'effect'
      ? view.scenario.sink.service
      : (view.scenario.processor.sideEffect?.service ?? 'card-charge');
  return (
    <ComponentBox
      id="service"
      anchor="service"
      title={svc === 'email' ? 'email service' : 'card charges (Stripe-style)'}
    >
      <div style={{ fontSize: '0.88em' }}>
        {svc === 'email'
          ? `${formatCountOf(fx.count, 'email')} sent`
          : `${formatCountOf(fx.count, 'charge')} · ${formatMoney(fx.sum)}`}
      </div>
      <ul className="muted" style={{ fontSize: '0.86em', margin: 0, paddingLeft: '1.1em' }}>
        {fx.recent.map((e) => (
          <li key={e}>
            #{view.cols.aux[e]} {eventIdOf(view.events, view.events.identity[view.cols.event[e]!]!)}{' '}
            at {formatMs(view.cols.time[e]!)}
          </li>
        ))}
      </ul>
    </ComponentBox>
  );
}
