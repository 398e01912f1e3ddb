import { useEffect, useId, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { LIBRARY_GROUPS, type Preset } from '../../scenarios';
import type { LabState } from '../../store/labStore';
import { useActions, useLab } from '../../store/LabContext';
import { isPristinePreset, openPreset } from '../../views/library/library';
import { setupAboutWords, setupWrittenFor } from '../../views/library/setupFor';
import { fixParts, sourceLabel } from '../../views/library/libraryListing';
import { linkedQuestion } from '../../views/io/linkedQuestion';
import type { LinkedPrediction } from '../../views/io/sharePrediction';
import { Breakable } from '../Breakable';
import { focusSoon } from '../hooks/focusSoon';
import { useFocusableWhenScrolls } from '../hooks/useFocusableWhenScrolls';
import { useFontScale } from '../hooks/useFontScale';
import { useBalancedBand } from '../present/useBalancedBand';
import { useBandWhileLocked } from '../present/useBandWhileLocked';
import { testIds } from '../testIds';
import { GuaranteeBadge } from './GuaranteeBadge';
import { HiddenOutcome } from './HiddenOutcome';
import { useLibraryUi } from './LibraryContext';
import { PredictFirst, PredictionBox } from './Prediction';
import { usePredictionGate } from './usePredictionGate';
import './library.css';

const selectPresetRef = (s: LabState) => s.presetRef;
const selectScenario = (s: LabState) => s.scenario;
const selectPresent = (s: LabState) => s.present;

/**
 * The open preset's story, beside the pipeline: the variants (one click apart), the setup and
 * the prediction prompt first, then the story, what to watch, the fix to try and the sources.
 * While its question waits for an answer, a band above the counters and the pipeline instead:
 * setup on the left, question on the right. Folds away to a narrow "Story" tab. Nothing when the
 * workspace did not come from a preset.
 */
export function StoryPanel() {
  const ui = useLibraryUi();
  const presetRef = useLab(selectPresetRef);
  // A share link's own question (or its `p=0`: none), while the workspace is its scenario.
  const linked = ui?.linked ?? null;
  const link = useLab((s: LabState) => linked?.applying(s) ?? null);
  const open = openPreset(presetRef);
  if (!ui) return null;
  if (!open) return link?.prediction.ask ? <LinkedStory link={link} /> : null;
  if (ui.storyHidden)
    return (
      <aside className="story folded" aria-label="Story">
        <button
          type="button"
          className="story-unfold"
          onClick={() => {
            ui.requestStoryFocus();
            ui.setStoryHidden(false);
          }}
          data-testid={testIds.storyToggle}
          aria-expanded="false"
          title={`Show the story of “${open.preset.title}”`}
        >
          <span aria-hidden="true" className="story-unfold-arrow">
            ‹{' '}
          </span>
          Story
        </button>
      </aside>
    );
  return <StoryOf preset={open.preset} variantId={open.variant.id} link={link} />;
}

/**
 * A share link's question when the link opened no preset: "Predict first" beside the pipeline,
 * where a preset's story would be, under the scenario's name.
 */
function LinkedStory({ link }: { link: LinkedPrediction }) {
  const scenario = useLab(selectScenario);
  const headingId = useId();
  const question = linkedQuestion(link);
  if (!question) return null;
  return (
    <aside className="story" aria-labelledby={headingId} data-testid={testIds.linkedStory}>
      <div className="story-head">
        <span className="story-kicker">Shared with a question</span>
        <h2 id={headingId}>{scenario.name}</h2>
      </div>
      <PredictFirst question={question} original="the scenario as shared" yoursInCounters />
    </aside>
  );
}

function StoryOf({
  preset,
  variantId,
  link,
}: {
  preset: Preset;
  variantId: string;
  /** A share link whose question (or none) is asked instead of the preset's. */
  link: LinkedPrediction | null;
}) {
  const ui = useLibraryUi()!;
  const a = useActions();
  const scenario = useLab(selectScenario);
  const presetRef = useLab(selectPresetRef);
  const edited = !isPristinePreset(scenario, presetRef);
  // "Predict first": the story, what to watch, the fix and the variants' summaries tell what
  // happens; they wait for the reveal. The title, the variants' names and the sources do not.
  const gate = usePredictionGate();
  const heading = useRef<HTMLHeadingElement>(null);
  const self = useRef<HTMLElement>(null);
  // Projector mode's band: its two columns split to make it as short as it can be.
  const present = useLab(selectPresent);
  const fontScale = useFontScale();
  const contentKey = `${preset.id}/${variantId}/${fontScale}/${link ? 'linked' : ''}`;
  // Asked and not yet answered: a band above the counters and the pipeline (library.css). Once
  // a prediction is locked in, the run is what the room watches: the story goes beside the
  // pipeline, which gets the height (a newcomer saw a 212 px strip while it played) — in
  // projector mode unless the setup and the question do not fit beside it: then the band stays
  // until the reveal, the setup whole (useBandWhileLocked).
  const keepBand = useBandWhileLocked(self, present && gate.phase === 'locked', contentKey);
  const band = gate.phase === 'pending' || keepBand;
  // Where the locked answer is read: in the band's box, else in the counters' row (before the
  // paint, as the band's own measure).
  const setBandWhileLocked = ui.setBandWhileLocked;
  useLayoutEffect(() => {
    setBandWhileLocked(keepBand);
    return () => setBandWhileLocked(false);
  }, [keepBand, setBandWhileLocked]);
  useBalancedBand(self, present && band, contentKey);
  // Projector mode's revealed setup scrolls in its own box: a tab stop then (the arrows scroll it).
  const setupBox = useRef<HTMLParagraphElement>(null);
  useFocusableWhenScrolls(setupBox, 'Setup', contentKey);
  const variantButtons = useRef<(HTMLButtonElement | null)[]>([]);
  const headingId = useId();
  const group = LIBRARY_GROUPS.find((g) => g.id === preset.group);
  const variant = preset.variants.find((v) => v.id === variantId)!;
  const index = preset.variants.indexOf(variant);
  // The setup is written for the variant the question is about ("the producer sends e3 again");
  // on another variant (retries=0 sends nothing again) it says which one it describes.
  const setupAbout = setupWrittenFor(preset, variant);

  // Opened from the library (or unfolded): focus lands on the story's title, from where the
  // variants and the prediction are the next tab stops.
  const tick = ui.openedTick;
  const takeStoryFocus = ui.takeStoryFocus;
  useEffect(() => {
    if (takeStoryFocus()) heading.current?.focus();
  }, [tick, takeStoryFocus]);

  const choose = (id: string) => a.loadPreset(`${preset.id}/${id}`);

  // A toolbar: one tab stop; arrows move between variants, Enter or Space switches (an arrow
  // alone does not load, so walking past three variants is not three edits to undo).
  const onKey = (e: KeyboardEvent<HTMLButtonElement>, k: number) => {
    const n = preset.variants.length;
    let next = -1;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = (k + 1) % n;
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = (k - 1 + n) % n;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = n - 1;
    if (next < 0) return;
    e.preventDefault();
    // The page's arrows step the playback: not while walking the variants.
    e.stopPropagation();
    variantButtons.current[next]?.focus();
  };

  return (
    <aside
      ref={self}
      className="story"
      aria-labelledby={headingId}
      data-testid={testIds.storyPanel}
      data-preset={preset.id}
      data-variant={variant.id}
      data-edited={edited}
      // The band (its question's answer still waits): see `band` above.
      data-asking={band}
    >
      <div className="story-head">
        <div className="story-top">
          <span className="story-kicker" data-testid={testIds.storyKicker}>
            {group?.label ?? preset.group}
            {/* What the story shows is its outcome ("shows ≤1 at-most-once" told a room there
                would be losses): said once the outcome is, never before — the outcome of the
                variant on screen as shipped (flink-checkpoint-replay, about exactly-once, said
                "shows =1 exactly-once" over its plain sink's duplicates), and not once edited:
                the verdict says what the changed run shows. */}
            {!gate.hidden && !edited && (
              <>
                {' · '}
                <GuaranteeBadge g={variant.scenario.expect?.observed ?? preset.illustrates} said />
              </>
            )}
          </span>
          <button
            type="button"
            className="story-fold"
            onClick={() => {
              ui.setStoryHidden(true);
              // The folded tab takes the focus: one Enter unfolds the story again.
              focusSoon(() => document.querySelector<HTMLElement>('.story-unfold'));
            }}
            data-testid={testIds.storyToggle}
            aria-expanded="true"
            title="Fold the story away (more room for the pipeline)"
          >
            Hide<span className="visually-hidden"> the story</span>{' '}
            <span aria-hidden="true" className="story-fold-arrow">
              ›
            </span>
          </button>
        </div>
        <h2 id={headingId} ref={heading} tabIndex={-1} data-testid={testIds.storyTitle}>
          {preset.title}
        </h2>
        {preset.variants.length > 1 && (
          <div
            className="variants"
            role="toolbar"
            aria-label="Variants"
            data-testid={testIds.storyVariants}
          >
            {preset.variants.map((v, k) => (
              <button
                key={v.id}
                ref={(el) => {
                  variantButtons.current[k] = el;
                }}
                type="button"
                aria-pressed={v.id === variant.id}
                tabIndex={k === index ? 0 : -1}
                onClick={() => choose(v.id)}
                onKeyDown={(e) => onKey(e, k)}
                title={
                  v.id === variant.id && edited
                    ? 'Reload this variant as shipped'
                    : gate.hidden
                      ? v.label
                      : v.summary
                }
                data-testid={testIds.storyVariant}
                data-variant={v.id}
              >
                {v.id === variant.id && (
                  <span aria-hidden="true" className="check">
                    ✓{' '}
                  </span>
                )}
                {v.label}
              </button>
            ))}
          </div>
        )}
        {/* The summary tells the outcome: hidden while it waits. The edited mark stays. */}
        {(!gate.hidden || edited) && (
          <p className="variant-summary">
            {!gate.hidden && (
              <>
                {edited && <span className="muted">As shipped: </span>}
                {variant.summary}
              </>
            )}
            {edited && (
              <span className="story-edited" data-testid={testIds.storyEdited}>
                {gate.hidden ? '' : ' · '}✎ edited —{' '}
                <button type="button" className="linkish" onClick={() => choose(variant.id)}>
                  reload as shipped
                </button>
              </span>
            )}
          </p>
        )}
      </div>
      {/* The setup: what the question needs, never the outcome — shown before the answer. */}
      <p className="story-setup" ref={setupBox} data-testid={testIds.storySetup}>
        {setupAbout && (
          <span className="story-setup-about muted" data-testid={testIds.storySetupAbout}>
            {setupAboutWords(setupAbout)}{' '}
          </span>
        )}
        <Breakable text={preset.setup} />
      </p>
      {link ? (
        <LinkedPredictFirst link={link} yoursInCounters={!keepBand} />
      ) : (
        <PredictionBox
          preset={preset}
          variantId={variantId}
          onOpenVariant={choose}
          yoursInCounters={!keepBand}
        />
      )}
      <div className="story-text">
        <h3>Story</h3>
        {edited && (
          <p className="story-edited-note" data-testid={testIds.storyEditedNote}>
            Changed since it was opened: the story, what to watch and the fix describe the preset as
            shipped, not the run on screen.
          </p>
        )}
        {gate.hidden ? (
          <HiddenOutcome gate={gate} what="story" />
        ) : (
          <StoryBody preset={preset} variantId={variant.id} edited={edited} choose={choose} />
        )}
        <h3>Sources</h3>
        <ul className="story-sources">
          {preset.sources.map((url) => (
            <li key={url}>
              <a href={url} target="_blank" rel="noopener noreferrer">
                {sourceLabel(url)}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </aside>
  );
}

/** The question a share link asks instead of the preset's (nothing for `p=0`). */
function LinkedPredictFirst({
  link,
  yoursInCounters,
}: {
  link: LinkedPrediction;
  yoursInCounters: boolean;
}) {
  const question = linkedQuestion(link);
  return question ? (
    <PredictFirst
      question={question}
      original="the scenario as shared"
      yoursInCounters={yoursInCounters}
    />
  ) : null;
}

/** The story, what to watch and the fix to try (a variant it names is a link to it). */
function StoryBody({
  preset,
  variantId,
  edited,
  choose,
}: {
  preset: Preset;
  variantId: string;
  edited: boolean;
  choose: (id: string) => void;
}) {
  return (
    <>
      <p data-testid={testIds.storyText}>
        <Breakable text={preset.story} />
      </p>
      <h3>Watch</h3>
      <p>
        <Breakable text={preset.watch} />
      </p>
      <h3>Try</h3>
      <p className="story-try">
        {fixParts(preset).map((part, k) =>
          part.kind === 'code' ? (
            <code key={k}>{part.text}</code>
          ) : part.kind === 'variant' ? (
            <button
              key={k}
              type="button"
              className="linkish"
              onClick={() => choose(part.variant)}
              disabled={part.variant === variantId && !edited}
              title={
                part.variant === variantId && !edited
                  ? 'This variant is open'
                  : 'Switch to this variant'
              }
            >
              {part.text}
            </button>
          ) : (
            <span key={k}>{part.text}</span>
          ),
        )}
      </p>
    </>
  );
}
