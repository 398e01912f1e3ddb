/**
 * Page notices: things the user must be told that outlive one edit — a saved workspace set aside,
 * a share link that could not be opened, storage full. A vanilla store, so code outside React
 * (start-up, autosave) can add to it; the {@link NoticeBar} shows it.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';

/** One notice. `lines` are details (an issue per line), shown as a list. */
export interface PageNotice {
  id: number;
  tone: 'info' | 'warn' | 'error';
  text: string;
  lines?: string[];
}

/** The notices store and its two actions. */
export interface Notices {
  store: StoreApi<{ items: PageNotice[] }>;
  push(notice: Omit<PageNotice, 'id'>): void;
  dismiss(id: number): void;
}

/** Create a notices store (one per page). */
export function createNotices(initial: Omit<PageNotice, 'id'>[] = []): Notices {
  let next = 1;
  const store = createStore<{ items: PageNotice[] }>()(() => ({
    items: initial.map((n) => ({ ...n, id: next++ })),
  }));
  return {
    store,
    push(notice) {
      store.setState((s) => ({ items: [...s.items, { ...notice, id: next++ }].slice(-5) }));
    },
    dismiss(id) {
      store.setState((s) => ({ items: s.items.filter((n) => n.id !== id) }));
    },
  };
}
