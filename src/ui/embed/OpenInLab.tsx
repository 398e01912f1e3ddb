import { useState, type MouseEvent } from 'react';
import type { ScenarioInput } from '../../engine';

/** The share link's codec (DEFLATE by fflate): a chunk of its own, fetched on first reach. */
const shareLinkOf = (scenario: ScenarioInput) =>
  import('../../views/io/shareLink').then((m) => `./#${m.encodeShare(scenario)}`);

/**
 * "Open in Delivery Lab ↗": the full lab on the embedded scenario, by its share link — the link
 * replays this exact run. The link is made when the reader reaches for it (the pointer over it,
 * focus, a touch), not with the player, so an embed never read that far fetches no codec
 * (issue 31); a click quicker than the codec's download opens the link once it is made (a new
 * tab within the click's user activation, https://html.spec.whatwg.org/multipage/interaction.html#transient-activation).
 */
export function OpenInLab({
  scenario,
  short = false,
}: {
  scenario: ScenarioInput;
  /** "Open ↗" on screen (a compact header's row); its name is still the whole phrase. */
  short?: boolean;
}) {
  const [link, setLink] = useState<{ of: ScenarioInput; href: string } | null>(null);
  const href = link?.of === scenario ? link.href : undefined;
  const make = () =>
    shareLinkOf(scenario).then((h) => {
      setLink({ of: scenario, href: h });
      return h;
    });
  const prepare = () => {
    if (href === undefined) void make().catch(() => {});
  };
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (href !== undefined) return;
    e.preventDefault();
    void make().then(
      (h) => window.open(h, '_blank', 'noopener,noreferrer'),
      () => {},
    );
  };
  return (
    <a
      href={href ?? './'}
      target="_blank"
      rel="noopener noreferrer"
      className="embed-open"
      onPointerEnter={prepare}
      onPointerDown={prepare}
      onFocus={prepare}
      onClick={onClick}
      title={short ? 'Open in Delivery Lab' : undefined}
    >
      {short ? (
        <>
          Open<span className="visually-hidden"> in Delivery Lab</span> ↗
        </>
      ) : (
        'Open in Delivery Lab ↗'
      )}
    </a>
  );
}
