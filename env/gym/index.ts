/**
 * The public surface of the Gym layer: the action space (`yaniv-actions/1`), the observation
 * (`yaniv-obs/2`), episodes, the `Table` game loop, `YanivEnv`, `VecEnv`, `SingleAgentEnv` and positions.
 */
export {
  ACTION_SPACE_VERSION,
  HAND_SLOTS,
  DISCARD_COUNT,
  type ActionRange,
  type MoveKind,
  type MoveStep,
  MOVE_KIND_NAMES,
  ACTION_RANGES,
  ACTION_RANGE_LIST,
  ACTION_COUNT,
  YANIV_ACTION,
  DISCARD_START,
  DRAW_DECK_ACTION,
  TAKE_START,
  PASS_ACTION,
  QUICK_ACTION,
  SLAPDOWN_ACTION,
} from './actionLayout.js';
export * from './actionMask.js';
export * from './actionMoves.js';
export * from './observation.js';
export * from './observationBounds.js';
export * from './episode.js';
export * from './yanivEnv.js';
export * from './vecEnv.js';
export * from './agent.js';
export * from './singleAgent.js';
export * from './table.js';
export * from './position.js';
export * from './equity.js';
export * from './seatEquity.js';
export * from './actionFeatures.js';
