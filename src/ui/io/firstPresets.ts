/**
 * The presets the first screen needs, loaded before the page boots: main.tsx and embedMain.tsx
 * import this module right after the simulation's chunk, so the download starts before the rest of
 * the entry evaluates, and src/ui/io/bootLab.ts awaits {@link firstPresetsLoaded} (a top-level
 * await) before it creates the lab: the default preset, the one `?preset=` names (an embed of it
 * needs no default), the saved workspace's, and — for a share link, which opens as the preset it
 * is when it is one unedited (`pristinePresetRef`) — every preset; and the lab's page, every
 * preset's metadata (the catalog's parts), and the validation if a saved workspace is there.
 * Each preset comes with its family's module only (src/scenarios/presetCatalog.ts), so an embed
 * of one preset fetches no other family (issues #24, #31).
 */
import { addressHash, addressQuery, hasAddress } from '../../platform/address';
import { loadPresetParam, presetParamOf, presetValueRef } from '../../platform/presetUrl';
import { PENDING_KEY, WORKSPACE_KEY } from '../../platform/workspaceKey';
import { shareParam } from '../../views/io/shareParam';
import {
  DEFAULT_PRESET_REF,
  loadAllPresets,
  loadPreset,
  loadWholeCatalog,
} from '../../scenarios/presetCatalog';
import { loadPresetScenarios } from '../../scenarios/presetScenarios';
import { loadValidation } from '../../views/run/validationOnDemand';
import { isEmbed } from '../embed/embedAddress';

/** The saved workspace's preset, read as written (src/platform/storage.ts validates it later). */
function savedPresetRef(): string | null {
  try {
    const raw = window.localStorage.getItem(WORKSPACE_KEY);
    const ref =
      raw === null
        ? null
        : (JSON.parse(raw) as { state?: { presetRef?: unknown } })?.state?.presetRef;
    return typeof ref === 'string' ? ref : null;
  } catch {
    return null;
  }
}

/** Whether storage holds a saved workspace, or the edits kept beside one (src/platform/storage.ts). */
function savedWorkspaceStored(): boolean {
  try {
    const s = window.localStorage;
    return s.getItem(WORKSPACE_KEY) !== null || s.getItem(PENDING_KEY) !== null;
  } catch {
    return false;
  }
}

/** Load what the page at `loc` opens with (a failed download is the run's to report). */
async function loadFirstPresets(
  loc: { search: string; hash: string } = { search: addressQuery(), hash: addressHash() },
): Promise<void> {
  if (shareParam(loc.hash) !== null) {
    await loadAllPresets();
    return;
  }
  // `?batch=` (the batch page's old address) becomes `?preset=` in main.tsx, after this runs.
  const value = presetParamOf(loc.search) ?? new URLSearchParams(loc.search).get('batch');
  const embed = isEmbed(loc.search);
  // An embed's parsed variants start downloading with the preset (its family, its catalog part),
  // not after them.
  const early =
    embed && value !== null ? loadPresetScenarios(presetValueRef(value)).catch(() => false) : null;
  // The lab's page reads every preset's metadata (its scenario menu lists them all): every part of
  // the catalog, alongside the presets; an embed holds its own preset's family's part only.
  const whole = embed ? null : loadWholeCatalog();
  // The preset the value names first, with its family's part of the catalog.
  const param = value === null ? null : await loadPresetParam(value);
  const saved = embed ? null : savedPresetRef();
  // The default opens when nothing else can: an embed of a preset that loads needs no other.
  const refs = [
    ...(param?.kind === 'preset' ? [param.ref] : []),
    ...(saved !== null ? [saved] : []),
    ...(param?.kind === 'preset' && embed ? [] : [DEFAULT_PRESET_REF]),
  ];
  // Each preset comes with its parsed variants (the chunk its first run loads anyway): the
  // player's readers then parse it without zod (src/views/run/validationOnDemand.ts
  // `knownParse`), which neither page loads for a preset (issue 24 for the lab's page).
  const parsed = Promise.all(refs.map((ref) => loadPresetScenarios(ref).catch(() => false)));
  // A saved workspace is validated as it is read (src/platform/storage.ts): the lab's page loads
  // the validation with the presets, only when storage holds one (not in: storage says so).
  const validation =
    embed || !savedWorkspaceStored() ? null : loadValidation().catch(() => undefined);
  const loaded = await Promise.all(refs.map((ref) => loadPreset(ref).catch(() => undefined)));
  if (loaded[0] === undefined)
    await Promise.all([
      loadPreset(DEFAULT_PRESET_REF),
      embed ? loadPresetScenarios(DEFAULT_PRESET_REF) : null,
    ]);
  await Promise.all([parsed, early, whole, validation]);
}

/** The first screen's presets, in (a failed download is the run's to report). */
export const firstPresetsLoaded: Promise<void> =
  // Only in a browser: unit tests load every preset themselves (src/testSetup.ts).
  hasAddress()
    ? loadFirstPresets()
        .catch(() => {})
        // A step of the first verdict that `npm run bench` times (bench/verdictSteps.ts).
        .then(() => void performance.mark('lab:presets-in'))
    : Promise.resolve();
