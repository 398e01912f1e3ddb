import { cardWords } from './cardWords';
import './settingName.css';

/**
 * A setting's name on a stage card (`transactional.id`): in a narrow column it breaks before its
 * last dot — "transactional" / ".id" — never at a syllable ("transaction-" / "al.id") and never
 * unhyphenated inside a word (the card's `overflow-wrap: anywhere`). settingName.css gives the
 * card the width its longest part needs in projector mode. The syllables cardWords marks stay as
 * the last resort, for a font wider than that width: a line breaks at the last opportunity that
 * fits, so they are used only when "transactional" itself does not.
 */
export function SettingName({ name }: { name: string }) {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return <>{cardWords(name)}</>;
  return (
    <>
      {cardWords(name.slice(0, dot))}
      <wbr />
      {name.slice(dot)}
    </>
  );
}
