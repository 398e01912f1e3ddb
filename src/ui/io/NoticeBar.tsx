import { useStore } from 'zustand';
import { testIds } from '../testIds';
import type { PageNotice } from './notices';
import { usePage } from './PageContext';

const selectItems = (s: { items: PageNotice[] }) => s.items;

/**
 * The page notices, each with its choices (if any) and a dismiss button. Text only: a notice may
 * quote user data.
 */
export function NoticeBar() {
  const { notices } = usePage();
  const items = useStore(notices.store, selectItems);
  if (items.length === 0) return null;
  return (
    <section className="notice-bar" aria-label="Notices" aria-live="polite">
      {items.map((n) => (
        <div
          key={n.id}
          className={`notice ${n.tone}`}
          role={n.tone === 'info' ? 'status' : 'alert'}
          data-testid={testIds.notice}
          data-tone={n.tone}
        >
          <div className="notice-body">
            <span>{n.text}</span>
            {n.lines && n.lines.length > 0 && (
              <ul>
                {n.lines.slice(0, 8).map((l, k) => (
                  <li key={k}>{l}</li>
                ))}
                {n.lines.length > 8 && <li>… and {n.lines.length - 8} more</li>}
              </ul>
            )}
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
