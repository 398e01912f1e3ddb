/** The page's playback speed range (`display.pace`'s bounds), apart from the schema that checks it. */

/** Slowest and fastest playback speeds (virtual ms per real ms): the page's speed range. */
export const PACE_MIN = 0.001;
export const PACE_MAX = 1000;
