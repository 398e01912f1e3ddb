/**
 * Start-up of the embed's page (src/embedMain.tsx): the lab on the address's scenario
 * (src/ui/io/bootLab.ts, as the lab's page), and only the services a frame uses — no saved
 * workspace (a docs page showing a scenario must not read nor overwrite the reader's own work on
 * the same origin), no browser history, and no share-link keeper (see src/embedMain.tsx). What
 * the lab's page adds (src/ui/io/boot.ts) is not in the embed's bundle (issue 31).
 */
import { createArtifactClient } from '../../platform/runClient';
import { bootLab, type BootedLab } from '../io/bootLab';
import type { PageServices } from '../io/PageContext';

/** The embed: its lab, its services, and how it started. */
interface BootedEmbed {
  lab: BootedLab['lab'];
  page: PageServices;
  start: BootedLab['start'];
  sharePrediction: BootedLab['sharePrediction'];
}

export function bootEmbed(): BootedEmbed {
  const { lab, notices, start, sharePrediction } = bootLab({ embed: true, saved: null });
  return {
    lab,
    page: { notices, artifacts: createArtifactClient(), shareLink: null },
    start,
    sharePrediction,
  };
}
