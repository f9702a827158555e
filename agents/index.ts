// `yaniv-arena/agents`: the agents by spec (`createAgentFor('strong', table)`; `resolveAgent` says what a spec plays there),
// the agents themselves, and tournaments. The `neural` agent loads tfjs when first made.
export { AGENT_NAMES, type AgentName, AgentSpecError, agentAbilities, describeAgents, parseAgentSpec } from './registry.js';
export { type ResolvedAgent, type TableKind, createAgent, createAgentFor, resolveAgent } from './resolve.js';
export { randomAgent } from './bots/random.js';
export { novice } from './bots/novice.js';
export { intermediate } from './bots/intermediate.js';
export { STRONG_DEFAULTS, type StrongConfig, strongBot } from './bots/strong.js';
export { ROLLOUT_DEFAULTS, type RolloutConfig, rolloutAgent } from './bots/rollout.js';
export { type MatchOptions, type MatchResult, type SeatStats, playMatch } from './tournament/match.js';
export { runTournament } from './tournament/run.js';
export type { TournamentConfig } from './tournament/tournamentConfig.js';
export type { TournamentSummary } from './tournament/stats.js';
export { MODELS_FOLDER, packageRoot, resolveModelDir } from './models/modelFolder.js';
