import { createContext } from 'react';

/**
 * Whether a style that sizes what is laid out (a table's row scale, a log's text size) is read
 * in the layout effect that mounts it rather than once the browser has laid it out
 * (./useLaidOutStyle.ts). The embedded player lays itself out and measures its height before its
 * first paint (src/ui/embed/ReserveHeight.tsx): a value read a frame later would resize what the
 * reader has already seen (issue 31), and its layout is forced there anyway.
 */
export const ReadLayoutAtMount = createContext(false);
