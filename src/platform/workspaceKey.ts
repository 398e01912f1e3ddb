/**
 * Where the workspace lives in `localStorage`: a module of its own, so that what reads the key
 * before the page boots (src/ui/io/firstPresets.ts: the saved workspace's preset) loads it without
 * src/platform/storage.ts and the scenario import that module brings (its validation, zod) — the
 * first verdict's presets are asked for once that small graph has run (issue 24).
 */
export const WORKSPACE_KEY = 'delivery-lab:workspace';
/**
 * Where the edits go while the workspace key holds a saved workspace this build cannot read
 * (./storage.ts `writeWorkspace`).
 */
export const PENDING_KEY = 'delivery-lab:workspace:pending';
