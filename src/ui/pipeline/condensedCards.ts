/**
 * Whether the stage cards are condensed (src/ui/present/condensedCards.css): projector mode with
 * its details folded — on the page while no room panel sits beside them, in the lesson view
 * always. The cards then keep for screen readers only the words their stage's heading already
 * says, through the markup's `visually-hidden` class.
 */
import { createContext, useContext } from 'react';

export const CondensedCardsContext = createContext(false);

export const useCondensedCards = (): boolean => useContext(CondensedCardsContext);
