/**
 * The public surface of the rules core: cards, rule options, state, the pure transitions
 * (`applyAction`, `step`), whole turns, records, player views and determinisation.
 * The allocation-free transitions that search code drives in hot loops (`layGroup`,
 * `drawFromDeck`, …) live in `./engine.ts` and are imported from there on purpose.
 */
export * from './cards.js';
export * from './rules.js';
export { SINGLE, SET, RUN, type GroupType, GROUP_TYPE_NAMES, GROUP_CAP, type PickRules, classifyLaid } from './groups.js';
export { DiscardList, MAX_DISCARDS, generateDiscards, bestGroupPoints } from './discards.js';
export * from './state.js';
export {
  IllegalMoveError,
  type NewGameOptions,
  newGame,
  type Deal,
  startRound,
  callableValue,
  canCallYaniv,
  yanivError,
  checkDiscard,
  legalDiscards,
  canDrawFromDeck,
  drawError,
  pickableCards,
  reshuffle,
  reshuffleCards,
  canQuickDiscard,
  canSlapDown,
  afterDrawError,
} from './engine.js';
export type { RoundEnd } from './scoring.js';
export * from './actions.js';
export * from './turns.js';
export * from './record.js';
export * from './play.js';
export * from './view.js';
export * from './random.js';
export * from './determinize.js';
export * from './assafRisk.js';
export * from './render.js';
