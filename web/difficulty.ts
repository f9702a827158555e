/**
 * The difficulty picker: the levels the server offers for the table's rules and size
 * (welcome.levels), each with its measured rating; picking one seats that level in every bot seat.
 * At a size where none are rated the server seats the levels of the preset's nearest rated size
 * (agents/level.ts `levelsFor`, the larger on a tie): the picker offers those and says where they
 * were rated, so a chosen level is never silently replaced when the table grows.
 */
import { html } from './html.js';
import { nearestSize } from '../env/rules/tableSizes.js';
import type { Msg } from '../client/protocol.js';

export type Level = Msg<'welcome'>['levels'][number]['levels'][number];

/** The table size whose levels a table of this preset and size plays (as the server picks them), or null when none are rated for the preset. */
export function levelsRatedAt(welcome: Msg<'welcome'>, preset: string, players: number): number | null {
  return (
    nearestSize(
      welcome.levels.filter((l) => l.preset === preset).map((l) => l.players),
      players,
    ) ?? null
  );
}

/** The levels offered at this preset and table size, weakest first (rated at the nearest size where none are rated at this one; none when the server serves no levels). */
export function levelsAt(welcome: Msg<'welcome'>, preset: string, players: number): readonly Level[] {
  const ratedAt = levelsRatedAt(welcome, preset, players);
  return welcome.levels.find((l) => l.preset === preset && l.players === ratedAt)?.levels ?? [];
}

/** A level in difficulty words, by where it stands among the `count` levels offered (1 is the weakest, `count` the best bot). */
export function difficultyWord(level: number, count: number): string {
  if (level >= count) return 'expert';
  const place = count > 1 ? (level - 1) / (count - 1) : 0;
  return place < 0.15 ? 'beginner' : place < 0.4 ? 'easy' : place < 0.7 ? 'medium' : 'hard';
}

/** How a level reads in the page: "Level 3 (easy) · rating 1340". */
export function levelLabel(level: Level, count: number): string {
  return `Level ${level.level} (${difficultyWord(level.level, count)}) · rating ${Math.round(level.rating)}`;
}

/** The level every bot seat plays, or '' when the seats differ or are no level. */
export function chosenLevel(bots: readonly string[], levels: readonly Level[]): string {
  const first = bots[0];
  return first !== undefined && bots.every((bot) => bot === first) && levels.some((l) => l.name === first) ? first : '';
}

interface DifficultyProps {
  readonly levels: readonly Level[];
  readonly bots: readonly string[];
  readonly anchor: string;
  /** The table size the levels were rated at, when it is not the table's. */
  readonly ratedAt: number | null;
  readonly onPick: (level: string) => void;
}

export function Difficulty({ levels, bots, anchor, ratedAt, onPick }: DifficultyProps) {
  if (levels.length === 0) return null;
  return html`<label class="row"
      >Difficulty
      <select name="difficulty" value=${chosenLevel(bots, levels)} onChange=${(e: Event) => onPick((e.target as HTMLSelectElement).value)}>
        <option value="">seat by seat</option>
        ${levels.map((l) => html`<option key=${l.name} value=${l.name}>${levelLabel(l, levels.length)}</option>`)}
      </select>
    </label>
    <p class="hint">
      Level 1 is gentle, level ${levels.length} is the best bot. Ratings are Elo points (${anchor} = 1500); 200 points apart, the stronger
      wins about 3 games in
      4.${ratedAt === null ? '' : ` These levels were rated at ${ratedAt} seats: at this table they may play a little stronger or weaker than their ratings.`}
    </p>`;
}
