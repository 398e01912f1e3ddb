import { useCallback, useRef, useState } from 'react';
import { useDismiss } from '../hooks/useDismiss';
import { copyText } from '../../platform/download';
import { useLab } from '../../store/LabContext';
import { usePage } from '../io/PageContext';
import { testIds } from '../testIds';
import { REFUSED_TITLE, selectRefused } from './refused';

/** Links longer than this may be cut by chat apps and mail clients: say so. */
const LONG_LINK = 8000;

/**
 * Share: put the scenario — with every fault added by clicks — in the URL hash and copy the link.
 * Opening it replays the identical run. The link also stays in the address bar until the next
 * edit.
 */
export function ShareButton() {
  const { shareLink } = usePage();
  const [link, setLink] = useState<{ url: string; copied: boolean } | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const open = link !== null;
  const close = useCallback(() => setLink(null), []);
  const refused = useLab(selectRefused);
  useDismiss(open, close, box, button);
  if (!shareLink) return null;
  return (
    <div className="popover-anchor" ref={box}>
      <button
        ref={button}
        type="button"
        data-testid={testIds.shareButton}
        aria-expanded={link !== null}
        disabled={refused}
        title={refused ? REFUSED_TITLE : 'Copy a link that replays this exact run'}
        onClick={async () => {
          const url = shareLink.share();
          setLink({ url, copied: false });
          const copied = await copyText(url);
          setLink({ url, copied });
        }}
      >
        Share
      </button>
      {link && (
        <div className="popover share-popover" role="dialog" aria-label="Share link">
          <p>
            <strong>{link.copied ? '✓ Link copied.' : 'Copy this link:'}</strong> It replays this
            exact run — the scenario with every fault you added (
            {link.url.length.toLocaleString('en-US')} characters).
          </p>
          <input
            type="text"
            readOnly
            value={link.url}
            aria-label="Share link"
            data-testid={testIds.shareUrl}
            onFocus={(e) => e.target.select()}
          />
          {link.url.length > LONG_LINK && (
            <p className="warn-text">
              A long link: some chat apps cut links this long. Export the scenario file to be safe.
            </p>
          )}
        </div>
      )}
    </div>
  );
}
