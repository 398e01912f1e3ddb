import { useState, type MouseEvent } from 'react';
import type { ScenarioInput } from '../../engine';
import { useLab } from '../../store/LabContext';
import type { LabState } from '../../store/labStore';
import { isDefaultChoice } from '../../views/atlas/atlasChoice';
import { isPristinePreset } from '../../views/library/library';

/** What the link carries: the scenario, Compare's lanes (`c=`) and the atlas's choice (`a=`). */
interface Linked {
  scenario: ScenarioInput;
  compare: LabState['compare'];
  atlas: LabState['atlas'];
}

/**
 * The share link's codecs (DEFLATE by fflate; `c=`, `a=`): chunks of their own, fetched on first
 * reach.
 */
const shareLinkOf = ({ scenario, compare, atlas }: Linked) =>
  Promise.all([
    import('../../views/io/shareLink'),
    import('../../views/compare/compareLink'),
    import('../../views/atlas/atlasLink'),
  ]).then(
    ([s, c, a]) =>
      `./#${a.withAtlasParam(c.withCompareParam(s.encodeShare(scenario), compare), atlas)}`,
  );

const selectCompare = (s: LabState) => s.compare;
const selectAtlas = (s: LabState) => s.atlas;
const selectPresetRef = (s: LabState) => s.presetRef;

/**
 * The link of a preset as shipped, nothing compared or chosen: `?preset=` opens it
 * (src/platform/presetUrl.ts), no codec needed — so the href is real from the first render, for
 * "Copy link address" and a middle click too (it was the bare lab root until hovered).
 */
function presetLinkOf({ scenario, compare, atlas }: Linked, presetRef: string | null) {
  return presetRef !== null &&
    compare === null &&
    isDefaultChoice(atlas) &&
    isPristinePreset(scenario, presetRef)
    ? `./?preset=${presetRef}`
    : undefined;
}

/**
 * "Open in Delivery Lab ↗": the full lab on the embedded scenario, by its share link — the link
 * replays this exact run, with the lanes compared and the fault atlas's kinds and pairs the embed
 * was given (its hash's `c=` and `a=`: the player shows no atlas, the lab does). A preset as
 * shipped links `?preset=` at once; any other scenario's link is made when the reader reaches for
 * it (the pointer over it, focus, a touch), not with the player, so an embed never read that far fetches no codec
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
  const compare = useLab(selectCompare);
  const atlas = useLab(selectAtlas);
  const presetRef = useLab(selectPresetRef);
  const [link, setLink] = useState<{ of: Linked; href: string } | null>(null);
  const href =
    presetLinkOf({ scenario, compare, atlas }, presetRef) ??
    (link?.of.scenario === scenario && link.of.compare === compare && link.of.atlas === atlas
      ? link.href
      : undefined);
  const make = () => {
    const of = { scenario, compare, atlas };
    return shareLinkOf(of).then((h) => {
      setLink({ of, href: h });
      return h;
    });
  };
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
