/** Milestones as the equity reads them: where a score lands, and how far the milestones above a total are. Pure. */
import type { Rules } from '../rules/rules.js';
/** The total after scoring `points` from `total`: the milestone it lands on, if any, applied. */
export function afterPoints(rules: Rules, total: number, points: number): number {
  const landed = total + points;
  const milestone = rules.milestones.find(([at]) => at === landed);
  return milestone ? milestone[1] : landed;
}

/** Distances from `total` to the milestones above it that lower a total. */
export function milestoneGaps(rules: Rules, total: number): number[] {
  return rules.milestones.filter(([at, to]) => at > total && to < at).map(([at]) => at - total);
}
