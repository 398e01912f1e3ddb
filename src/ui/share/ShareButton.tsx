import { useCallback, useId, useRef, useState } from 'react';
import { useDismiss } from '../hooks/useDismiss';
import { copyText } from '../../platform/download';
import { useLab, useLabInstance } from '../../store/LabContext';
import {
  defaultPredictionChoice,
  ownPresetQuestion,
  SHARE_PREDICT_MAX,
  sharePredictionFor,
  type PredictionChoice,
  type SharePrediction,
} from '../../views/io/sharePrediction';
import { usePage } from '../io/PageContext';
import { usePredictionGate } from '../library/usePredictionGate';
import { testIds } from '../testIds';
import { REFUSED_TITLE, selectRefused } from './refused';

/** Links longer than this may be cut by chat apps and mail clients: say so. */
const LONG_LINK = 8000;

/** The popover's state: the link, whether it is on the clipboard, the prediction asked. */
interface Shared {
  url: string;
  copied: boolean;
  choice: PredictionChoice;
  /** The question the page asks by itself of this link (a preset as shipped), or null. */
  own: { question: string; answer: string } | null;
}

/** What the link asks, in words, under the choice. */
function shareAskNote(p: SharePrediction | null, own: boolean): string {
  if (p === null)
    return own
      ? 'The preset’s own question: the link opens as the preset, which asks it (its answer stays out of the link).'
      : 'The link asks nothing: the outcome shows at once.';
  if (!p.ask) return 'The link opens the preset without its question: the outcome shows at once.';
  return 'The link carries the question and its answer (encoded, not secret): the answer shows when the run reaches its end.';
}

/**
 * Share: put the scenario — with every fault added by clicks — in the URL hash and copy the link.
 * Opening it replays the identical run. The link also stays in the address bar until the next
 * edit. "Ask for a prediction first" puts the author's question and answer in the link as well
 * (src/views/io/sharePrediction.ts): the same choice for any scenario as for a preset, whose own
 * question comes along ticked — by the preset's name alone, its answer staying out of the link.
 */
export function ShareButton() {
  const { shareLink } = usePage();
  const lab = useLabInstance();
  const [shared, setShared] = useState<Shared | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const open = shared !== null;
  const close = useCallback(() => setShared(null), []);
  const refused = useLab(selectRefused);
  // While the answer waits, the link leaves out the expect block that holds it.
  const answerHidden = usePredictionGate().answerWaits;
  const id = useId();
  useDismiss(open, close, box, button);
  if (!shareLink) return null;

  /** Write the link for `choice` (the address bar too), and copy it when asked to. */
  const write = async (choice: PredictionChoice, own: Shared['own'], copy: boolean) => {
    const url = shareLink.share(sharePredictionFor(choice, own), { answerHidden });
    setShared({ url, copied: false, choice, own });
    if (!copy) return;
    const copied = await copyText(url);
    setShared((s) => (s && s.url === url ? { ...s, copied } : s));
  };
  const change = (patch: Partial<PredictionChoice>) => {
    if (!shared) return;
    void write({ ...shared.choice, ...patch }, shared.own, false);
  };

  return (
    <div className="popover-anchor" ref={box}>
      <button
        ref={button}
        type="button"
        data-testid={testIds.shareButton}
        aria-expanded={open}
        disabled={refused}
        title={refused ? REFUSED_TITLE : 'Copy a link that replays this exact run'}
        onClick={() => {
          const s = lab.app.getState();
          const own = ownPresetQuestion(s.scenario, s.presetRef);
          void write(defaultPredictionChoice(own), own, true);
        }}
      >
        Share
      </button>
      {shared && (
        <div className="popover share-popover" role="dialog" aria-label="Share link">
          <p>
            <strong>{shared.copied ? '✓ Link copied.' : 'Copy this link:'}</strong> It replays this
            exact run — the scenario with every fault you added (
            {shared.url.length.toLocaleString('en-US')} characters).
          </p>
          <input
            type="text"
            readOnly
            value={shared.url}
            aria-label="Share link"
            data-testid={testIds.shareUrl}
            onFocus={(e) => e.target.select()}
          />
          {shared.url.length > LONG_LINK && (
            <p className="warn-text">
              A long link: some chat apps cut links this long. Export the scenario file to be safe.
            </p>
          )}
          <div className="share-predict">
            <label>
              <input
                type="checkbox"
                checked={shared.choice.ask}
                data-testid={testIds.shareAsk}
                onChange={(e) => change({ ask: e.target.checked })}
              />{' '}
              Ask for a prediction first
            </label>
            {shared.choice.ask && (
              <>
                <label htmlFor={`${id}-q`}>Question</label>
                <input
                  id={`${id}-q`}
                  type="text"
                  maxLength={SHARE_PREDICT_MAX}
                  value={shared.choice.question}
                  placeholder="What will the sink end with? (with choices)"
                  data-testid={testIds.shareQuestion}
                  onChange={(e) => change({ question: e.target.value })}
                />
                {/* Folded: a teacher shares the link in front of the class. */}
                <details>
                  <summary>The answer (shown after the reveal)</summary>
                  <label htmlFor={`${id}-a`}>Answer</label>
                  <input
                    id={`${id}-a`}
                    type="text"
                    maxLength={SHARE_PREDICT_MAX}
                    value={shared.choice.answer}
                    placeholder="(the run's outcome is always shown)"
                    data-testid={testIds.shareAnswer}
                    onChange={(e) => change({ answer: e.target.value })}
                  />
                </details>
              </>
            )}
            <p className="muted" data-testid={testIds.shareAskNote}>
              {shareAskNote(sharePredictionFor(shared.choice, shared.own), shared.own !== null)}
            </p>
          </div>
          {!shared.copied && (
            <button
              type="button"
              data-testid={testIds.shareCopy}
              onClick={async () => {
                const url = shared.url;
                const copied = await copyText(url);
                setShared((s) => (s && s.url === url ? { ...s, copied } : s));
              }}
            >
              Copy the link
            </button>
          )}
        </div>
      )}
    </div>
  );
}
