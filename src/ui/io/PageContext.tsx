/**
 * Page-wide services beside the lab: the notices, and the artifact client that computes diagram
 * texts and export files from the run (in a worker for big runs).
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { ArtifactClient } from '../../platform/runClient';
import type { ShareSync } from '../share/shareSync';
import type { Notices } from './notices';
import type { ChallengeOpening } from '../challenge/challengeOpening';

/** What {@link PageProvider} provides. */
export interface PageServices {
  notices: Notices;
  artifacts: ArtifactClient;
  /** The share link: puts the scenario in the URL hash (null: this page cannot share, a test). */
  shareLink: ShareSync | null;
  /**
   * The challenge the page opened on (`?challenge=<id>`, resolved by its boot:
   * ./firstChallenge.ts), or none.
   */
  challenge?: ChallengeOpening | null;
}

const PageContext = createContext<PageServices | null>(null);

/** Provides the page services to the components below. */
export function PageProvider({ page, children }: { page: PageServices; children: ReactNode }) {
  return <PageContext.Provider value={page}>{children}</PageContext.Provider>;
}

/** The page services, or null where a page provides none (an embed, a lesson's screen). */
export function useOptionalPage(): PageServices | null {
  return useContext(PageContext);
}

/** The page services. Throws outside a {@link PageProvider} (a wiring bug). */
export function usePage(): PageServices {
  const page = useContext(PageContext);
  if (!page) throw new Error('usePage must be used inside <PageProvider>');
  return page;
}
