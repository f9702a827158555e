/**
 * Advice under load: each advice request plays its moves out in worlds drawn from the view
 * (agents/equity/moveOutlook.ts), milliseconds of a worker each. While requests queue, the pool
 * (serve/inference/pool.ts) gives each fewer worlds, so that an answer comes sooner with wider intervals
 * (it says how many worlds it used) instead of waiting behind every other request's whole budget.
 */

/** Requests waiting per worker (queued or in flight) that still get the whole budget: about one batch of a few requests. */
export const BACKLOG_AT_FULL_BUDGET = 4;

/**
 * The worlds advice is played out in with `backlog` requests waiting per worker: every one of
 * `full` while the workers keep up, then fewer in proportion as the backlog grows, down to
 * `min` — under load an answer comes sooner with wider intervals (it says how many worlds it
 * used) instead of waiting behind every other request's full budget.
 */
export function worldsUnderLoad(backlog: number, full: number, min: number): number {
  if (backlog <= BACKLOG_AT_FULL_BUDGET || min >= full) return full;
  return Math.max(min, Math.floor((full * BACKLOG_AT_FULL_BUDGET) / backlog));
}
