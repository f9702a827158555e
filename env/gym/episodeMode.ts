/** What counts as one episode of the environments: a round, or a whole game. */
export const EPISODE_MODES = ['round', 'game'] as const;
export type EpisodeMode = (typeof EPISODE_MODES)[number];
