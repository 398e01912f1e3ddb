import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { addressAs, embedElementSnippet, expectAttribute } from './embedElement';
import { copyText, downloadText, fileStem } from '../../platform/download';
import { scenarioJson } from '../../views/io/export';
import { encodeShare } from '../../platform/share';
import { withCompareParam } from '../../views/compare/compareLink';
import { withAtlasParam } from '../../views/atlas/atlasLink';
import { atlasPinFor, findingsOf, survivalPin } from '../../views/atlas/atlasFindings';
import { loadedPreset } from '../../scenarios/presetCatalog';
import type { LabState } from '../../store/labStore';
import { useCursor, useLab, useLabInstance, useView } from '../../store/LabContext';
import { isPristinePreset, questionVariant } from '../../views/library/library';
import { outgoingScenario, pinExpect } from '../../views/edit/pinExpect';
import { paceOf } from '../../views/run/pace';
import { usePage } from '../io/PageContext';
import { usePredictionGate } from '../library/usePredictionGate';
import { testIds } from '../testIds';
import {
  CAPTION_MAX,
  DEFAULT_EMBED,
  EMBED_PANELS,
  embedQuery,
  embedSnippet,
  PREDICT_MAX,
  speedChoices,
  type EmbedOptions,
  type EmbedPanel,
} from './embedOptions';
import { addressBase } from '../../platform/address';
import {
  initialHeightOf,
  MEASURED_WIDTHS,
  MeasureFrames,
  type MeasuredHeights,
} from './MeasureFrames';

const PANEL_LABELS: Record<EmbedPanel, string> = {
  pipeline: 'Pipeline (topology)',
  transport: 'Time controls',
  counters: 'Counters',
  verdict: 'Verdict',
  why: 'Explanations',
  compare: 'Compare (the lanes on the page, else the default offer)',
};

const selectScenario = (s: LabState) => s.scenario;
const selectCompare = (s: LabState) => s.compare;
const selectAtlas = (s: LabState) => s.atlas;
const selectAtlasFound = (s: LabState) => s.atlasFound;
const selectPresetRef = (s: LabState) => s.presetRef;
const selectStatus = (s: LabState) => s.status;
const selectT = (s: { t: number }) => s.t;
const selectSpeed = (s: LabState) => s.speed;

/**
 * Writes the iframe snippet of a compact player of the current scenario (exact: the scenario goes
 * in the URL hash, as a share link), with the author's options.
 */
export function EmbedDialog({ onClose }: { onClose: () => void }) {
  const { notices, shareLink } = usePage();
  const lab = useLabInstance();
  const scenario = useLab(selectScenario);
  const compare = useLab(selectCompare);
  const atlas = useLab(selectAtlas);
  const atlasFound = useLab(selectAtlasFound);
  const presetRef = useLab(selectPresetRef);
  const status = useLab(selectStatus);
  const view = useView();
  // While the answer waits, the snippet leaves out the expect block that holds it.
  const answerHidden = usePredictionGate().answerWaits;
  const t = useCursor(selectT);
  // The lab's speed now is one of the choices, so the author can keep the one tuned for the run.
  const labSpeed = useLab(selectSpeed);
  // The default (no speed=) plays the run at its own pace, as the lab opens it.
  const pace = view ? paceOf(scenario, view) : undefined;
  const speeds = useMemo(() => speedChoices(labSpeed, pace), [labSpeed, pace]);
  const preset = presetRef ? loadedPreset(presetRef) : undefined;
  const ref = useRef<HTMLDialogElement>(null);
  // The open preset's "Predict first" question comes along when it is about this variant —
  // asked by default when the run is as shipped. Another variant's question would describe
  // another run: then nothing is filled in, and ticking the box asks the embed's generic
  // question, with choices about the run on screen.
  // An edited run is not the one the preset's answer describes (a reader who answered what the
  // run showed was told "Not quite"): nothing is filled in, as for another variant.
  const pristine = preset !== undefined && isPristinePreset(scenario, presetRef);
  const asked =
    pristine && preset !== undefined && questionVariant(preset.preset) === preset.variant.id;
  const [o, setO] = useState<EmbedOptions>(() => {
    // A share link's choice (`p=`) on the run it opened, as opened: the page asks it (or nothing,
    // `p=0`) in place of the preset's, so the player starts with it too. After an edit its answer
    // describes another run, as a preset's does.
    const link = shareLink?.linked.applying(lab.app.getState());
    const shared = link && link.scenario === scenario ? link.prediction : null;
    if (shared)
      return {
        ...DEFAULT_EMBED,
        panels: [...DEFAULT_EMBED.panels],
        predict: shared.ask,
        question: shared.ask ? shared.question : '',
        answer: shared.ask ? shared.answer : '',
      };
    return {
      ...DEFAULT_EMBED,
      panels: [...DEFAULT_EMBED.panels],
      predict: asked,
      question: asked ? preset.preset.predict.question : '',
      answer: asked ? preset.preset.predict.answer : '',
    };
  });
  // The frame's height until the player's first message, for either form: the height the player
  // reports for this run (MeasureFrames), so the host page does not move when it arrives — the
  // element's `initial-height` per column width, the iframe's the docs column's. The author's own
  // number, once typed, wins for the iframe.
  const [measured, setMeasuredHeights] = useState<MeasuredHeights>({});
  const onMeasured = useCallback((m: MeasuredHeights) => setMeasuredHeights(m), []);
  const [typedHeight, setHeight] = useState<number | null>(null);
  const height = typedHeight ?? measured.column ?? 560;
  const initialHeight = initialHeightOf(measured);
  // The loader's element (public/embed.js) with the scenario in its hash or in a file beside the
  // page (`src`: docs/embed.md, "A scenario file beside the page"), or a plain iframe; addresses
  // with or without the origin.
  const [form, setForm] = useState<'element' | 'file' | 'iframe'>('element');
  // The `src=` form's file, named as Export › Scenario names it — after the caption when the
  // author wrote one: two scenarios edited from one preset keep its name, and both files (and
  // both `src=`) were called the same, the second download taking the first one's place.
  const fileName = `${fileStem(o.caption.trim() || scenario.name)}.scenario.json`;
  // The expectation of what the embed shows, for `delivery-lab check` (docs/cli.md). Pinned by
  // default, but not when the player asks a prediction: the pin is the answer, in the page's
  // source (the author may still tick it, as docs CI needs it).
  const [pinned, setPinned] = useState(() => !o.predict);
  // What the finished atlas of this scenario found, when the claim survived every fault tried:
  // pinned too (`expect.atlas`), so the page's "survives every single fault" is checked in CI.
  const survival = useMemo(
    () => survivalPin(findingsOf(atlasFound, scenario, atlas)),
    [atlasFound, scenario, atlas],
  );
  const [survivalPinned, setSurvivalPinned] = useState(true);
  const [address, setAddress] = useState<'absolute' | 'relative'>('absolute');
  const id = useId();
  useEffect(() => {
    ref.current?.showModal?.();
  }, []);
  const set = (patch: Partial<EmbedOptions>) => setO((x) => ({ ...x, ...patch }));

  const url = useMemo(() => {
    const base = addressBase();
    // An unedited preset goes as shipped: the player knows it (a share link of a preset opens as
    // that preset), so its own question and answer need not be in the URL, where anyone could
    // read the answer in the page's source. Anything else: the snippet's expect block pins the run
    // on screen (a preset's would describe the preset).
    if (pristine && preset !== undefined) {
      const own =
        asked &&
        o.question === preset.preset.predict.question &&
        o.answer === preset.preset.predict.answer;
      const query = embedQuery(own ? { ...o, question: '', answer: '' } : o);
      // Its expect block is the answer: left out while the page hides it (the player still
      // knows the preset without it, pristinePresetRef).
      const shipped = outgoingScenario(preset.variant.scenario, null, {
        ready: false,
        answerHidden,
      });
      return `${base}${query}#${withAtlasParam(withCompareParam(encodeShare(shipped), compare), atlas)}`;
    }
    const out = outgoingScenario(scenario, view, { ready: status === 'ready', answerHidden });
    // The lanes compared on the page go with it (`c=`): `panels=compare` shows them. So do the
    // atlas's kinds and pairs (`a=` in the hash; the query's `a=` is the answer): the player has
    // no atlas, its "Open in Delivery Lab" opens the lab with them (OpenInLab.tsx).
    return `${base}${embedQuery(o)}#${withAtlasParam(withCompareParam(encodeShare(out), compare), atlas)}`;
  }, [o, scenario, status, view, pristine, asked, preset, answerHidden, compare, atlas]);
  // The run on screen, pinned as a share link pins it (its answer included: this is for CI); an
  // atlas pin as written takes the counts of the finished atlas of this scenario, when the page
  // holds one of its kinds and depth (it may have just shown the pin false).
  const expect = useMemo(() => {
    const e = status === 'ready' ? pinExpect(scenario, view).expect : scenario.expect;
    const atlasPin = e?.atlas && atlasPinFor(findingsOf(atlasFound, scenario, atlas), e.atlas);
    return e && atlasPin ? { ...e, atlas: atlasPin } : e;
  }, [scenario, view, status, atlasFound, atlas]);
  const pin = useMemo(
    () =>
      pinned && expect
        ? survival && survivalPinned
          ? { ...expect, atlas: survival }
          : expect
        : undefined,
    [pinned, expect, survival, survivalPinned],
  );
  // The file the `src=` form plays: the scenario on screen, pinned by its own `expect` block (which
  // `delivery-lab check` reads when the element has none), or without one.
  const fileText = useMemo(() => {
    const { expect: _shown, ...withoutExpect } = scenario;
    return scenarioJson(pin ? { ...withoutExpect, expect: pin } : withoutExpect);
  }, [scenario, pin]);
  const snippet = useMemo(
    () =>
      form === 'element'
        ? embedElementSnippet(url, address, pin, initialHeight)
        : form === 'file'
          ? embedElementSnippet(url, address, undefined, initialHeight, fileName)
          : embedSnippet(addressAs(url, address), {
              title: `Delivery Lab: ${o.caption || scenario.name}`.slice(0, 200),
              height,
              ...(o.frameId ? { frameId: o.frameId } : {}),
              ...(pin ? { expectAttribute: expectAttribute('data-expect', pin) } : {}),
            }),
    [form, address, url, o.caption, o.frameId, scenario.name, height, pin, initialHeight, fileName],
  );

  const copySnippet = async () => {
    const ok = await copyText(snippet);
    notices.push(
      ok
        ? { tone: 'info', text: 'The embed snippet is on the clipboard.' }
        : { tone: 'warn', text: 'The clipboard refused: select the snippet and copy it.' },
    );
  };

  return (
    <dialog
      ref={ref}
      className="dialog embed-dialog"
      aria-labelledby={`${id}-title`}
      data-testid={testIds.embedDialog}
      onClose={onClose}
    >
      <h2 id={`${id}-title`}>Embed this scenario</h2>
      <p className="muted">
        A compact player of this exact scenario (faults included) for a docs page, a course or a
        slide deck. It works from any host: the frame reports its height to the page.
      </p>
      <div className="embed-form">
        <fieldset>
          <legend>Playback</legend>
          <label>
            <input
              type="checkbox"
              checked={o.autoplay}
              onChange={(e) => set({ autoplay: e.target.checked })}
            />{' '}
            Autoplay
          </label>
          <label>
            Start at{' '}
            <input
              type="number"
              min={0}
              step={100}
              value={o.start}
              style={{ width: '8em' }}
              onChange={(e) => set({ start: Math.max(0, Math.floor(Number(e.target.value) || 0)) })}
            />{' '}
            ms{' '}
            <button type="button" onClick={() => set({ start: Math.floor(t) })}>
              use the cursor ({Math.floor(t)} ms)
            </button>
          </label>
          <label>
            Speed{' '}
            <select
              value={o.speed === null ? '' : String(o.speed)}
              onChange={(e) =>
                set({ speed: e.target.value === '' ? null : Number(e.target.value) })
              }
            >
              {speeds.map((c) => (
                <option key={c.label} value={c.value === null ? '' : String(c.value)}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
        </fieldset>
        <fieldset>
          <legend>Panels</legend>
          {EMBED_PANELS.map((p) => (
            <label key={p}>
              <input
                type="checkbox"
                checked={o.panels.includes(p)}
                onChange={(e) =>
                  set({
                    panels: e.target.checked ? [...o.panels, p] : o.panels.filter((x) => x !== p),
                  })
                }
              />{' '}
              {PANEL_LABELS[p]}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Reader</legend>
          <label>
            Caption{' '}
            <input
              type="text"
              maxLength={CAPTION_MAX}
              value={o.caption}
              onChange={(e) => set({ caption: e.target.value })}
            />
          </label>
          <label>
            <input
              type="checkbox"
              checked={o.lock}
              onChange={(e) => set({ lock: e.target.checked })}
            />{' '}
            Lock the knobs (no guarantee switch, no faults by clicking)
          </label>
          <label>
            <input
              type="checkbox"
              checked={o.predict}
              onChange={(e) => set({ predict: e.target.checked })}
            />{' '}
            Ask for a prediction, then reveal
          </label>
          {o.predict && (
            <>
              <label>
                Question{' '}
                <input
                  type="text"
                  maxLength={PREDICT_MAX}
                  value={o.question}
                  placeholder="What will the sink end with? (with choices)"
                  onChange={(e) => set({ question: e.target.value })}
                />
              </label>
              {/* Folded: a teacher opens this dialog in front of the class. */}
              <details>
                <summary>The answer (shown after the reveal)</summary>
                <label>
                  Answer{' '}
                  <input
                    type="text"
                    maxLength={PREDICT_MAX}
                    value={o.answer}
                    placeholder="(the run's outcome is always shown)"
                    onChange={(e) => set({ answer: e.target.value })}
                  />
                </label>
              </details>
            </>
          )}
          {/* The player's colours. Unwritten, the loader's element follows the page's theme (its
              own default, host) and a bare iframe the reader's system: on a dark docs page read on
              a light system the iframe was a white card. */}
          <label>
            Theme{' '}
            <select
              value={o.theme === 'light' || o.theme === 'dark' ? o.theme : ''}
              onChange={(e) =>
                set({
                  theme:
                    e.target.value === 'light' || e.target.value === 'dark'
                      ? e.target.value
                      : 'auto',
                })
              }
            >
              <option value="">
                {form === 'iframe' ? 'the reader’s system' : 'the page’s, as the loader follows it'}
              </option>
              <option value="light">light</option>
              <option value="dark">dark</option>
            </select>
          </label>
          <label>
            Frame id{' '}
            <input
              type="text"
              maxLength={80}
              value={o.frameId}
              placeholder="delivery-lab"
              onChange={(e) => set({ frameId: e.target.value.replace(/[^\w-]/g, '') })}
            />
          </label>
        </fieldset>
      </div>
      <fieldset className="embed-form embed-snippet-form">
        <legend>Snippet</legend>
        <label>
          <input
            type="radio"
            name={`${id}-form`}
            checked={form === 'element'}
            onChange={() => setForm('element')}
          />{' '}
          the loader’s element (sizes every frame, follows the page’s theme)
        </label>
        <label>
          <input
            type="radio"
            name={`${id}-form`}
            checked={form === 'file'}
            onChange={() => setForm('file')}
          />{' '}
          the loader’s element and a scenario file beside the page (<code>src=</code>: the file your
          docs’ repository keeps)
        </label>
        <label>
          <input
            type="radio"
            name={`${id}-form`}
            checked={form === 'iframe'}
            onChange={() => setForm('iframe')}
          />{' '}
          an iframe and its listener
        </label>
        {/* The player's height, measured at a docs column's width and a phone's: the element's
            `initial-height`, and the iframe's height until its first message. */}
        <MeasureFrames url={url} onMeasured={onMeasured} />
        {form !== 'iframe' && (
          <p className="muted" data-testid={testIds.embedInitialHeight}>
            {initialHeight === undefined
              ? 'Measuring the player’s height for initial-height…'
              : `initial-height: ${measured.column} px in a ${MEASURED_WIDTHS.column} px column, ${measured.phone} px in a phone’s ${MEASURED_WIDTHS.phone} px (the frame’s height until the player’s first message, so the page does not move)`}
          </p>
        )}
        {form === 'iframe' && (
          <label>
            Initial height{' '}
            <input
              type="number"
              min={200}
              max={2000}
              step={20}
              value={height}
              style={{ width: '6em' }}
              onChange={(e) =>
                setHeight(Math.min(2000, Math.max(200, Number(e.target.value) || 560)))
              }
            />{' '}
            px (the frame's, until its first height message)
          </label>
        )}
        <label>
          <input
            type="checkbox"
            checked={address === 'relative'}
            onChange={(e) => setAddress(e.target.checked ? 'relative' : 'absolute')}
          />{' '}
          addresses from the site’s root, no origin (the lab on the same site as the page)
        </label>
        <label>
          <input
            type="checkbox"
            checked={pinned}
            disabled={expect === undefined}
            onChange={(e) => setPinned(e.target.checked)}
          />{' '}
          pin what it shows for docs CI (<code>expect</code>, checked by{' '}
          <code>delivery-lab check</code>)
          {pinned && o.predict && ' — it holds the outcome, readable in the page’s source'}
        </label>
        {survival && (
          <label>
            <input
              type="checkbox"
              checked={pinned && survivalPinned}
              disabled={!pinned}
              onChange={(e) => setSurvivalPinned(e.target.checked)}
              data-testid={testIds.embedPinAtlas}
            />{' '}
            and that it survives every {survival.depth === 2 ? 'pair of faults' : 'single fault'}{' '}
            the atlas tried (<code>"atlas"</code>: <code>delivery-lab check</code> runs the atlas
            again)
          </label>
        )}
        {/* Two things to take away, each with its own button, in the order they are used — last,
            once the choices above (the pin above all, which the file holds) are made. */}
        {form === 'file' && (
          <ol className="embed-file-steps">
            <li>
              <button
                type="button"
                data-testid={testIds.embedFile}
                onClick={() => downloadText(fileText, fileName, 'application/json')}
              >
                Download {fileName}
              </button>{' '}
              <span className="muted">
                and put it beside the page: <code>src</code> is resolved against the page’s address
                {pin ? '; its expect block pins it for docs CI' : ''}.
              </span>
            </li>
            <li>
              <button type="button" data-testid={testIds.embedFileCopy} onClick={copySnippet}>
                Copy the element
              </button>{' '}
              <span className="muted">
                and paste it into the page: it plays <code>{fileName}</code>.
              </span>
            </li>
          </ol>
        )}
      </fieldset>
      <label className="label" htmlFor={`${id}-snippet`}>
        Paste this into the page ({snippet.length.toLocaleString('en-US')} characters):
      </label>
      <textarea
        id={`${id}-snippet`}
        readOnly
        rows={9}
        value={snippet}
        spellCheck={false}
        data-testid={testIds.embedSnippet}
        onFocus={(e) => e.target.select()}
      />
      <div className="dialog-buttons">
        <button type="button" className="primary" onClick={copySnippet}>
          Copy the snippet
        </button>
        <a href={url} target="_blank" rel="noopener noreferrer">
          Preview the player ↗
        </a>
        <span className="spacer" />
        <button type="button" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}
