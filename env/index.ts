// The public surface of the rules core.
export * from './cards.js';
export * from './rules.js';
export * from './groups.js';
export * from './discards.js';
export * from './state.js';
export * from './engine.js';
export * from './scoring.js';
export * from './actions.js';
export * from './turns.js';
export * from './record.js';
export * from './play.js';
export * from './view.js';
export * from './random.js';
// The environment (issue #3).
export * from './actionSpace.js';
export * from './observation.js';
export * from './episode.js';
export * from './yanivEnv.js';
export * from './vecEnv.js';
export * from './singleAgent.js';
export * from './position.js';
export * from './determinize.js';
export * from './render.js';
