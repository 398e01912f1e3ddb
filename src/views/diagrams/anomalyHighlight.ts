/**
 * The colours that mark the anomaly's rows on the slide (./anomalyDiagram.ts): apart, so that the
 * mermaid module (src/platform/mermaid.ts, its slide configuration) takes them without the diagram
 * code.
 */

/** Mermaid `rect` fills of the highlight (the page's --dup-bg and --lost-bg). */
export const HIGHLIGHT = { duplicated: 'rgb(253, 233, 210)', lost: 'rgb(251, 227, 225)' } as const;

/** Their edges on the slide's picture (the page's --dup and --lost). */
export const HIGHLIGHT_EDGE = { duplicated: '#9a4a00', lost: '#a3201a' } as const;
