import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import type { Preset } from '../../scenarios';
import { loadedPresets } from '../../scenarios/presetCatalog';
import type { LabState } from '../../store/labStore';
import { useActions, useLab } from '../../store/LabContext';
import { openPreset } from '../../views/library/library';
import {
  libraryListing,
  listingSummary,
  moveActive,
  SEARCH_SUGGESTIONS,
  type ListKey,
} from '../../views/library/libraryListing';
import { testIds } from '../testIds';
import { ChallengeMenu } from '../challenge/ChallengeMenu';
import { GuaranteeBadge } from './GuaranteeBadge';
import { useLibraryUi } from './LibraryContext';
import './library.css';

const selectPresetRef = (s: LabState) => s.presetRef;

const LIST_KEYS: Record<string, ListKey> = {
  ArrowDown: 'ArrowDown',
  ArrowRight: 'ArrowDown',
  ArrowUp: 'ArrowUp',
  ArrowLeft: 'ArrowUp',
  Home: 'Home',
  End: 'End',
  PageDown: 'PageDown',
  PageUp: 'PageUp',
};

/**
 * The scenario library: a modal dialog (the native `<dialog>`: focus stays inside, Escape and a
 * click outside close it) with a search box and the presets grouped by where the failure
 * happens. Keyboard: type to search, ↓ to the cards; ↑/↓ move a row on the grid, ←/→ (and
 * Home/End, PgUp/PgDn) walk the list, Enter opens one — Enter in the search box opens the first match; typing on a
 * card goes back to the search.
 */
export function LibraryDialog() {
  const ui = useLibraryUi()!;
  const a = useActions();
  const presetRef = useLab(selectPresetRef);
  const current = openPreset(presetRef);
  const [query, setQuery] = useState('');
  const listing = useMemo(() => libraryListing(query, loadedPresets()), [query]);
  // The card the arrows move from: the open preset's at first, the first match after a search.
  const [active, setActive] = useState(() =>
    Math.max(
      0,
      listing.flat.findIndex((p) => p.id === current?.preset.id),
    ),
  );
  const openId = useRef(current?.preset.id);
  const dialog = useRef<HTMLDialogElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const cards = useRef(new Map<string, HTMLButtonElement>());
  const headingId = useId();
  const searchId = useId();
  const countId = useId();

  useEffect(() => {
    const d = dialog.current!;
    // jsdom has no showModal; a real browser always does.
    if (typeof d.showModal === 'function' && !d.open) d.showModal();
    else d.setAttribute('open', '');
    search.current?.focus();
    // The open preset's card in view (it is the active one: ↓ goes there, Enter reopens it).
    const id = openId.current;
    if (id) cards.current.get(id)?.scrollIntoView({ block: 'nearest' });
    return () => {
      if (d.open && typeof d.close === 'function') d.close();
    };
  }, []);

  const close = () => {
    ui.setOpen(false);
    const back = ui.returnFocus.current;
    // After React has removed the dialog, so the focus is not lost with it.
    queueMicrotask(() => back?.isConnected && back.focus());
  };

  const open = (p: Preset) => {
    // The open preset keeps its variant (reloaded as shipped); another opens as its bare id
    // does, at its default variant — the one its question is about (a story must not open on
    // another variant, its outcome in full view): src/scenarios/defaultVariant.ts.
    a.loadPreset(current?.preset.id === p.id ? current.ref : p.id);
    ui.setOpen(false);
    ui.markOpened();
  };

  const focusCard = (index: number) => {
    const p = listing.flat[index];
    if (!p) return;
    setActive(index);
    cards.current.get(p.id)?.focus();
  };

  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'PageDown') {
      e.preventDefault();
      focusCard(Math.min(active, listing.matched - 1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const p = listing.flat[Math.min(active, listing.matched - 1)];
      if (p) open(p);
    }
  };

  /**
   * ↑/↓ on the grid: the card in the row above / below nearest in x (the cards wrap into rows
   * of two or three); -1 when there is no such row. ←/→ keep walking the list in order.
   */
  const cardInRow = (index: number, down: boolean): number => {
    const rect = (i: number) => cards.current.get(listing.flat[i]!.id)?.getBoundingClientRect();
    const here = rect(index);
    if (!here) return -1;
    const x = here.left + here.width / 2;
    let best = -1;
    let bestRow = Infinity;
    let bestDx = Infinity;
    for (let i = 0; i < listing.matched; i++) {
      const r = i === index ? undefined : rect(i);
      if (!r) continue;
      const dy = down ? r.top - here.bottom : here.top - r.bottom;
      if (dy < -1) continue; // not below (above)
      const dx = Math.abs(r.left + r.width / 2 - x);
      if (dy < bestRow - 1 || (Math.abs(dy - bestRow) <= 1 && dx < bestDx)) {
        best = i;
        bestRow = dy;
        bestDx = dx;
      }
    }
    return best;
  };

  const onCardKey = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const key = LIST_KEYS[e.key];
    if (key && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        const next = cardInRow(index, e.key === 'ArrowDown');
        if (next >= 0) return focusCard(next);
        // The top row goes back to the search; the bottom row walks on to the next card.
        if (e.key === 'ArrowUp') search.current?.focus();
        else focusCard(moveActive(index, listing.matched, 'ArrowDown'));
        return;
      }
      if (index === 0 && key === 'ArrowUp') {
        search.current?.focus();
        return;
      }
      focusCard(moveActive(index, listing.matched, key));
      return;
    }
    // Typing on a card searches: the character goes to the search box.
    if (
      (e.key.length === 1 && e.key !== ' ' && !e.ctrlKey && !e.metaKey && !e.altKey) ||
      e.key === 'Backspace'
    ) {
      e.preventDefault();
      const next = e.key === 'Backspace' ? query.slice(0, -1) : query + e.key;
      setQuery(next);
      setActive(0);
      search.current?.focus();
    }
  };

  const onBackdrop = (e: MouseEvent<HTMLDialogElement>) => {
    // A click on the dialog element itself is a click on its backdrop (the content fills it).
    if (e.target === e.currentTarget) close();
  };

  const trimmed = query.trim();
  return (
    <dialog
      ref={dialog}
      className="library"
      aria-labelledby={headingId}
      data-testid={testIds.libraryDialog}
      onCancel={(e) => {
        // Escape: close through React state (the dialog is unmounted), focus back where it was.
        e.preventDefault();
        close();
      }}
      onClick={onBackdrop}
      // The page's shortcuts (Space, arrows, Ctrl+Z) must not act behind a modal dialog.
      onKeyDown={(e) => e.stopPropagation()}
    >
      <div className="library-body">
        <header className="library-head">
          <div>
            <h2 id={headingId}>Scenario library</h2>
            <p className="muted">
              Real failures, each told as a story and pinned to its exact outcome — grouped by where
              in the pipeline the failure happens.
            </p>
          </div>
          <button
            type="button"
            className="library-close"
            onClick={close}
            data-testid={testIds.libraryClose}
          >
            ✕ Close<span className="visually-hidden"> the library</span>
          </button>
        </header>
        <div className="library-search">
          <label htmlFor={searchId}>Search</label>
          <input
            ref={search}
            id={searchId}
            type="search"
            value={query}
            placeholder="duplicate, Flink, p-77, read_committed, Stripe…"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={countId}
            data-testid={testIds.librarySearch}
            onChange={(e) => {
              setQuery(e.target.value);
              setActive(0);
            }}
            onKeyDown={onSearchKey}
          />
          <span
            id={countId}
            className="muted"
            aria-live="polite"
            data-testid={testIds.libraryCount}
            data-matched={listing.matched}
          >
            {listingSummary(listing, query)}
          </span>
        </div>
        <div className="library-groups">
          {listing.matched === 0 && (
            <p className="library-empty">
              No preset matches “{trimmed}”. Search looks in titles, stories, fixes, variants, ids
              and sources — try{' '}
              {SEARCH_SUGGESTIONS.map((w, k) => (
                <span key={w}>
                  {k > 0 && (k === SEARCH_SUGGESTIONS.length - 1 ? ' or ' : ', ')}
                  <button
                    type="button"
                    className="linkish"
                    onClick={() => {
                      setQuery(w);
                      setActive(0);
                      search.current?.focus();
                    }}
                  >
                    {w}
                  </button>
                </span>
              ))}
              .{' '}
              <button
                type="button"
                onClick={() => {
                  setQuery('');
                  search.current?.focus();
                }}
              >
                Clear the search
              </button>
            </p>
          )}
          {listing.groups.map(({ group, presets }) => (
            <section
              key={group.id}
              className="lib-group"
              aria-labelledby={`${headingId}-${group.id.replace(/\s/g, '-')}`}
              data-testid={testIds.libraryGroup}
              data-group={group.id}
            >
              <div className="lib-group-head">
                <h3 id={`${headingId}-${group.id.replace(/\s/g, '-')}`}>{group.label}</h3>
                <p className="muted">{group.blurb}</p>
              </div>
              <ul className="lib-cards">
                {presets.map((p) => {
                  const index = listing.flat.indexOf(p);
                  const isOpen = current?.preset.id === p.id;
                  return (
                    <li key={p.id}>
                      <button
                        type="button"
                        ref={(el) => {
                          if (el) cards.current.set(p.id, el);
                          else cards.current.delete(p.id);
                        }}
                        className={`lib-card${index === active ? ' active' : ''}`}
                        tabIndex={index === Math.min(active, listing.matched - 1) ? 0 : -1}
                        onClick={() => open(p)}
                        onKeyDown={(e) => onCardKey(e, index)}
                        onFocus={() => setActive(index)}
                        data-testid={testIds.libraryCard}
                        data-preset={p.id}
                        aria-current={isOpen ? 'true' : undefined}
                      >
                        <span className="lib-card-title">{p.title}</span>
                        <span className="lib-card-line">{p.oneLine}</span>
                        <span className="lib-card-meta">
                          <GuaranteeBadge g={p.illustrates} />
                          <span className="muted">
                            {p.variants.length === 1
                              ? '1 variant'
                              : `${p.variants.length} variants`}
                          </span>
                          {isOpen && <span className="lib-open-now">● open now</span>}
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            </section>
          ))}
          <ChallengeMenu onChosen={close} />
        </div>
      </div>
    </dialog>
  );
}
