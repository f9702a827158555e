// The hidden-information check of the serve tests, shared by the one-process games (game.test.ts)
// and the games through nginx (test/deploy): every true state of a played game re-played from its
// revealed seed, and every frame to a seat checked to name only cards that seat can see.
import { expect } from 'vitest';
import {
  ACTION_COUNT,
  Episode,
  type GameState,
  MaskScratch,
  type PlayerView,
  cardName,
  cloneState,
  parseEnvOptions,
  playerView,
} from '../../env/index.js';
import type { ServerMessage } from '../../serve/index.js';
import { CARD_PATTERN, viewToJson } from '../../serve/protocol/viewJson.js';
import { decideBatch, playedAgent } from '../../serve/inference/decide.js';
import { resolveAgent } from '../../agents/resolve.js';
import { mixSeed } from '../../env/rules/random.js';

/** A game a client played: its frames, the table it created and the game_over it got. */
type TableCreated = Extract<ServerMessage, { type: 'table_created' }>;

export interface PlayedGame {
  client: { readonly frames: readonly ServerMessage[] };
  created: TableCreated;
  over: Extract<ServerMessage, { type: 'game_over' }>;
}

/**
 * Every true state of the game, by counter, re-played from the revealed seed and the actions the
 * events told. Once every client seat is out the table is played out unstreamed (only the step
 * ending each round is told): those steps are re-decided here as the server decides them (the
 * seat's agent, seeded by the table seed and the counter), and checked against the told ones.
 */
export async function statesOf(played: PlayedGame): Promise<GameState[]> {
  const { created, over } = played;
  const episode = new Episode(
    parseEnvOptions({
      preset: created.preset,
      rules: created.rules,
      players: created.players,
      episode: 'game',
      history: true,
      seed: over.seed,
    }),
  );
  episode.reset({ seed: over.seed });
  const viewer = created.seats.find((s) => s.player === 'client')?.seat;
  const told = new Map(
    played.client.frames
      .filter((m): m is Extract<ServerMessage, { type: 'event' }> => m.type === 'event' && m.seat === viewer)
      .map((event) => [event.counter, event]),
  );
  const states = [cloneState(episode.state)];
  const mask = new Uint8Array(ACTION_COUNT);
  const scratch = new MaskScratch();
  const rewards = new Float32Array(created.players);
  let streamed = true;
  for (let counter = 1; counter <= over.counter; counter++) {
    episode.writeMask(scratch, mask, 0);
    const event = told.get(counter);
    streamed &&= event !== undefined;
    let action = event?.action ?? -1;
    if (!streamed) {
      const seat = episode.state.current;
      const agent = created.seats[seat].agent;
      expect(agent, `step ${counter} of a client seat was not told`).toBeDefined();
      const view = playerView(episode.state, seat);
      const [decided] = await decideBatch([
        {
          agent: playedAgent(resolveAgent(agent as string, { preset: created.preset, rules: created.rules, players: created.players })),
          source: { kind: 'playerView', view },
          seed: mixSeed(over.seed, counter - 1),
          explain: false,
        },
      ]);
      if (!decided.ok) throw new Error(decided.message);
      if (event) expect(decided.action).toBe(event.action);
      action = decided.action;
    }
    episode.step(action, mask, 0, rewards, 0);
    states.push(cloneState(episode.state));
  }
  expect(episode.history?.toPosition(episode.state).record).toEqual(over.record);
  return states;
}

/** Every card name a frame mentions (in any string, such as "discard 5S 6S"). */
export function cardsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') for (const word of value.split(/\s+/)) if (CARD_PATTERN.test(word)) out.push(word.toUpperCase());
  if (Array.isArray(value)) for (const item of value) cardsIn(item, out);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) cardsIn(item, out);
  return out;
}

export function visible(view: PlayerView): Set<string> {
  const cards = [
    ...view.hand,
    ...view.known.flat(),
    ...view.previous.cards,
    ...(view.laid?.cards ?? []),
    ...view.pile,
    ...(view.drawn !== null ? [view.drawn] : []),
  ];
  return new Set(cards.map(cardName));
}

/**
 * Every state and event frame the client got names only cards its seat could see just before or
 * after that step, and each state's view is exactly the seat's playerView; returns how many frames
 * were checked. `states` are the game's true states when the client's own frames cannot give them
 * (a person who was away for some steps: statesOf of another seat's frames).
 */
export async function checkNoLeaks(played: PlayedGame, states?: readonly GameState[]): Promise<number> {
  states ??= await statesOf(played);
  let checked = 0;
  for (const frame of played.client.frames) {
    if (frame.type !== 'state' && frame.type !== 'event') continue;
    if (frame.table !== played.created.table) continue;
    const after = states[frame.counter];
    const before = states[Math.max(0, frame.counter - 1)];
    const allowed = new Set([...visible(playerView(after, frame.seat)), ...visible(playerView(before, frame.seat))]);
    for (const card of cardsIn(frame)) {
      if (!allowed.has(card))
        throw new Error(`seat ${frame.seat} was told ${card}, which it cannot see, in ${JSON.stringify(frame).slice(0, 300)}`);
    }
    if (frame.type === 'state')
      expect(frame.view).toEqual(viewToJson(playerView(after, frame.seat), played.created.preset, played.created.rules));
    if (frame.type === 'event' && frame.kind === 'draw' && frame.actor !== frame.seat) expect(frame.cards).toEqual([]);
    checked++;
  }
  return checked;
}

/** The table as one person sees it for the leak check: their seat is the client seat, every other a bot. */
export function asSeenBy(created: TableCreated, seat: number): TableCreated {
  return {
    ...created,
    seats: created.seats.map((s) =>
      s.seat === seat ? { seat, player: 'client' } : { seat: s.seat, player: 'bot', agent: s.agent ?? 'strong' },
    ),
  };
}

/** Every frame a person got about the table is about their own seat (the replies that seat them aside). */
export function onlyOwnSeat(client: { readonly frames: readonly ServerMessage[] }, table: string, seat: number): void {
  const seats = new Set(
    client.frames
      .filter((m) => 'seat' in m && 'table' in m && m.table === table && m.type !== 'joined' && m.type !== 'resumed')
      .map((m) => (m as { seat: number }).seat),
  );
  expect([...seats]).toEqual([seat]);
}
