/**
 * The How-to-play page's checker: whether the cards a player picked, in the order picked, are a
 * legal group to lay, and why — read by the engine's own code (env/rules/groups.ts, served to
 * the page by serve/net/static.ts), never a second copy of the rules —, with the cards the next
 * player could take from it.
 */
import { cardName, parseCard } from '../env/rules/cards.js';
import { GROUP_TYPE_NAMES, type PickRules, classifyLaid, pickableMask } from '../env/rules/groups.js';
import { cardsInGlyphs, withCardGlyphs } from './cards.js';

/** What may be taken from a laid group under the standard rules (RULES.md, "Which cards of the previous group may be taken"). */
export const STANDARD_PICKS = { pickFromSet: 'any', pickFromRun: 'ends', quickDiscard: false } as const satisfies PickRules;

export type GroupCheck =
  | {
      readonly legal: true;
      readonly type: 'single' | 'set' | 'run';
      readonly laid: readonly string[];
      readonly takeable: readonly string[];
      readonly words: string;
    }
  | { readonly legal: false; readonly words: string };

const TYPE_WORDS = {
  single: 'a single card: any one card may be laid alone',
  set: 'a set: cards of one rank (jokers may stand in)',
  run: 'a run: three or more cards of one suit in a row (jokers may fill gaps and ends)',
} as const;

/** The engine's verdict on these cards (protocol names, in the order laid), in a player's words. */
export function checkGroup(names: readonly string[], rules: PickRules = STANDARD_PICKS): GroupCheck {
  if (names.length === 0) return { legal: false, words: 'Pick cards to see whether they make a group.' };
  const cards = names.map((name) => {
    const card = parseCard(name);
    if (card === undefined) throw new RangeError(`${name} is not a card name`);
    return card;
  });
  const verdict = classifyLaid(cards, rules);
  if ('error' in verdict) {
    const reason = verdict.error.replace(/^.* is not a legal group: /, '');
    return { legal: false, words: `Not a legal group: ${withCardGlyphs(reason)}.` };
  }
  const type = GROUP_TYPE_NAMES[verdict.type];
  const laid = verdict.cards.map(cardName);
  const mask = pickableMask(verdict.type, laid.length, rules);
  const takeable = laid.filter((_, i) => (mask & (1 << i)) !== 0);
  const which =
    takeable.length === laid.length ? 'any of them' : `only an end: ${[...new Set(takeable.map((c) => cardsInGlyphs([c])))].join(' or ')}`;
  return {
    legal: true,
    type,
    laid,
    takeable,
    words: `Legal: ${TYPE_WORDS[type]}. On the pile it reads ${cardsInGlyphs(laid)}; the next player may take ${laid.length === 1 ? 'it' : which}.`,
  };
}
