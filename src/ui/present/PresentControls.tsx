import type { LabState, Theme } from '../../store/labStore';
import { useActions, useLab } from '../../store/LabContext';
import { testIds } from '../testIds';
import './present.css';
import './condensedCards.css';
import './askedCards.css';

const selectPresent = (s: LabState) => s.present;
const selectDetails = (s: LabState) => s.details;
const selectTheme = (s: LabState) => s.theme;

/** The next scheme of the toggle: system → light → dark → system. */
const NEXT_THEME: Record<Theme, Theme> = { system: 'light', light: 'dark', dark: 'system' };
const THEME_LABEL: Record<Theme, string> = {
  system: 'Colours: system',
  light: 'Colours: light',
  dark: 'Colours: dark',
};

/**
 * Projector mode (P), the secondary panels in it (D), and the colour scheme — for a room reading
 * the page from a projector: large text, one screen, and the scheme that projects best, whatever
 * the laptop's OS says. All three are remembered with the workspace.
 */
export function PresentControls() {
  const a = useActions();
  const present = useLab(selectPresent);
  const details = useLab(selectDetails);
  const theme = useLab(selectTheme);
  return (
    <span className="field present-controls" role="group" aria-label="Display">
      <button
        type="button"
        aria-pressed={present}
        onClick={() => a.setPresent(!present)}
        data-testid={testIds.presentToggle}
        title="Projector mode (P): large text, pipeline, counters and question on one screen"
      >
        Projector
      </button>
      {present && (
        <button
          type="button"
          aria-pressed={details}
          onClick={() => a.setDetails(!details)}
          data-testid={testIds.detailsToggle}
          title="Ledger, knobs and event trace (D)"
        >
          Details
        </button>
      )}
      <button
        type="button"
        onClick={() => a.setTheme(NEXT_THEME[theme])}
        data-testid={testIds.themeToggle}
        data-theme-choice={theme}
        title="Light or dark colours, or the system's (remembered)"
      >
        {THEME_LABEL[theme]}
      </button>
    </span>
  );
}
