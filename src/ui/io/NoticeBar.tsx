import { useState } from 'react';
import { useStore } from 'zustand';
import { testIds } from '../testIds';
import type { PageNotice } from './notices';
import { usePage } from './PageContext';

const selectItems = (s: { items: PageNotice[] }) => s.items;

/** Lines a notice shows before the rest is asked for. */
const FIRST_LINES = 8;

/**
 * A notice's details: the first {@link FIRST_LINES}, and a button for the rest — never cut off
 * (a configuration import lists the keys applied first, then each key ignored and why).
 */
function NoticeLines({ lines }: { lines: string[] }) {
  const [all, setAll] = useState(false);
  const rest = lines.length - FIRST_LINES;
  return (
    <>
      <ul className={all ? 'notice-lines all' : 'notice-lines'} tabIndex={all ? 0 : undefined}>
        {(all ? lines : lines.slice(0, FIRST_LINES)).map((l, k) => (
          <li key={k}>{l}</li>
        ))}
      </ul>
      {rest > 0 && (
        <button type="button" className="linkish" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? `Show the first ${FIRST_LINES} lines only` : `Show the ${rest} more lines`}
        </button>
      )}
    </>
  );
}

/**
 * The page notices, each with its choices (if any) and a dismiss button. Text only: a notice may
 * quote user data.
 */
export function NoticeBar() {
  const { notices } = usePage();
  const items = useStore(notices.store, selectItems);
  // The latest information, said by one live region that is always there: the bar, a polite
  // region added with its first notice, held each notice as a status of its own, and a screen
  // reader said an import twice (or, the region new, not at all). A warning is an alert.
  const said = [...items].reverse().find((n) => n.tone === 'info');
  return (
    <>
      <p className="visually-hidden" aria-live="polite" data-testid={testIds.noticeSaid}>
        {said?.text ?? ''}
      </p>
      {items.length > 0 && <Notices items={items} />}
    </>
  );
}

function Notices({ items }: { items: PageNotice[] }) {
  const { notices } = usePage();
  return (
    <section className="notice-bar" aria-label="Notices">
      {items.map((n) => (
        <div
          key={n.id}
          className={`notice ${n.tone}`}
          role={n.tone === 'info' ? undefined : 'alert'}
          data-testid={testIds.notice}
          data-tone={n.tone}
        >
          <div className="notice-body">
            <span>{n.text}</span>
            {n.lines && n.lines.length > 0 && <NoticeLines lines={n.lines} />}
          </div>
          {n.actions?.map((a) => (
            <button
              key={a.label}
              type="button"
              aria-label={a.name}
              data-testid={testIds.noticeAction}
              onClick={() => {
                if (a.run()) notices.dismiss(n.id);
              }}
            >
              {a.label}
            </button>
          ))}
          <button
            type="button"
            onClick={() => notices.dismiss(n.id)}
            aria-label="Dismiss"
            data-testid={testIds.noticeDismiss}
          >
            ✕
          </button>
        </div>
      ))}
    </section>
  );
}
