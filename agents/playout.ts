/**
 * A fast greedy policy that plays a sampled world to the end of the round, straight on the
 * engine's buffers (no views, no allocation per turn): call Yaniv when allowed, lay the
 * group with the most points, take a previous card worth at most 2, else draw.
 */
import {
  DiscardList, GROUP_CAP, type GameState, PHASE_AFTER_DRAW, PHASE_DRAW, PHASE_TURN, type Phase,
  callYaniv, canDrawFromDeck, canQuickDiscard, canSlapDown, drawFromDeck, drawFromPrevious, handValue, layGroup,
  legalDiscards, passAfterDraw, quickDiscard, slapDown,
} from '../env/index.js';

const list = new DiscardList();

/** Plays greedy turns until the round ends or `maxTurns` turns have passed; returns the turns played. */
export function playoutRound(s: GameState, maxTurns = 200): number {
  let turns = 0;
  while (turns < maxTurns) {
    const phase = s.phase as Phase;
    if (phase === PHASE_TURN) {
      if (handValue(s, s.current) <= s.rules.yanivThreshold) {
        callYaniv(s);
        return turns;
      }
      layHighest(s);
    } else if (phase === PHASE_DRAW) {
      drawGreedy(s);
      turns++;
    } else if (phase === PHASE_AFTER_DRAW) {
      if (canSlapDown(s)) slapDown(s);
      else if (canQuickDiscard(s)) quickDiscard(s);
      else passAfterDraw(s);
    } else {
      return turns;
    }
  }
  return turns;
}

function layHighest(s: GameState): void {
  legalDiscards(s, list);
  let best = 0;
  let bestPoints = -1;
  for (let i = 0; i < list.count; i++) {
    let points = 0;
    for (let j = 0; j < list.length[i]; j++) points += s.values[list.cards[i * GROUP_CAP + j]];
    if (points > bestPoints || (points === bestPoints && list.length[i] > list.length[best])) {
      best = i;
      bestPoints = points;
    }
  }
  layGroup(s, list.cards, list.length[best], list.groupType(best), best * GROUP_CAP);
}

function drawGreedy(s: GameState): void {
  let cheapest = -1;
  for (let i = 0; i < s.prevLength; i++) {
    if ((s.prevPickable >> i) & 1 && (cheapest < 0 || s.values[s.prev[i]] < s.values[cheapest])) cheapest = s.prev[i];
  }
  if (cheapest >= 0 && (s.values[cheapest] <= 2 || !canDrawFromDeck(s))) drawFromPrevious(s, cheapest);
  else drawFromDeck(s);
}
