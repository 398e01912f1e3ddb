/**
 * Page notices: things the user must be told that outlive one edit — a saved workspace set aside,
 * a share link that could not be opened, storage full. A vanilla store, so code outside React
 * (start-up, autosave) can add to it; the {@link NoticeBar} shows it.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ClaimAsked } from '../../platform/storage';

/** A button on a notice: a choice the notice asks for. */
export interface NoticeAction {
  /** The button's text. */
  label: string;
  /** Its accessible name (begins with the label). */
  name: string;
  /** Do it; true when the notice is settled (it then goes). */
  run: () => boolean;
}

/** One notice. `lines` are details (an issue per line), shown as a list. */
export interface PageNotice {
  id: number;
  tone: 'info' | 'warn' | 'error';
  text: string;
  lines?: string[];
  /** Choices offered (a notice with choices is not pushed out by newer ones). */
  actions?: NoticeAction[];
  /**
   * The claim question of imported configuration files (./claimNotice.ts): kept in the saved
   * workspace while the notice is on the page, and asked again on reload.
   */
  claimAsked?: ClaimAsked;
}

/** The notices store and its two actions. */
export interface Notices {
  store: StoreApi<{ items: PageNotice[] }>;
  push(notice: Omit<PageNotice, 'id'>): void;
  dismiss(id: number): void;
}

/** Notices shown at most: the oldest plain ones go first. */
const MAX_NOTICES = 5;

/** Create a notices store (one per page). */
export function createNotices(initial: Omit<PageNotice, 'id'>[] = []): Notices {
  let next = 1;
  const store = createStore<{ items: PageNotice[] }>()(() => ({
    items: initial.map((n) => ({ ...n, id: next++ })),
  }));
  return {
    store,
    push(notice) {
      store.setState((s) => {
        const items = [...s.items, { ...notice, id: next++ }];
        // A notice waiting for a choice stays until it is made or dismissed.
        while (items.length > MAX_NOTICES) {
          const oldest = items.findIndex((n) => !n.actions?.length);
          if (oldest < 0) break;
          items.splice(oldest, 1);
        }
        return { items };
      });
    },
    dismiss(id) {
      store.setState((s) => ({ items: s.items.filter((n) => n.id !== id) }));
    },
  };
}
