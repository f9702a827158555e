/**
 * The new-game form: a rule preset (with house rules on top, from welcome.ruleOptions), the
 * table size, the bot in each other seat (from welcome.agents), how fast the bots play, and an
 * optional seed (the same seed and the same moves give the same game).
 */
import { useState } from 'preact/hooks';
import type { TableInfo } from './game.js';
import { html } from './html.js';
import type { Outgoing } from './link.js';
import { MAX_PLAYERS, MIN_PLAYERS, type Msg } from '../client/protocol.js';
import { agentBlurb, botName, modelNote, presetBlurb } from './blurbs.js';
import { Difficulty, levelLabel, levelsAt, levelsRatedAt } from './difficulty.js';
import { HouseRules, withRule } from './houseRules.js';
import { type RuleField, type RuleValue, ruleFields } from './ruleOptions.js';

/** A seat for a friend, who joins with the invite (create_table's `guest`). */
export const FRIEND = 'guest';

export interface TableChoice {
  readonly preset: string;
  /** The agent in each seat after the player's (the player sits in seat 1), or FRIEND. */
  readonly bots: readonly string[];
  readonly rules: Readonly<Record<string, RuleValue>>;
  readonly thinkMs: number;
  readonly seed: number | null;
}

export const BOT_PACES = [
  { label: 'instant', thinkMs: 0 },
  { label: 'brisk', thinkMs: 300 },
  { label: 'relaxed', thinkMs: 900 },
] as const;

export function defaultSettings(welcome: Msg<'welcome'>): TableChoice {
  return { preset: welcome.limits.preset, bots: [welcome.agents[0]?.name ?? 'strong'], rules: {}, thinkMs: 300, seed: null };
}

/** The settings a table was dealt with, for another game like it (new cards: no seed). */
export function settingsOf(info: TableInfo): TableChoice {
  return {
    preset: info.preset,
    bots: info.seats.filter((s) => s.player !== 'client').map((s) => (s.player === 'guest' ? FRIEND : (s.agent ?? ''))),
    rules: info.rules as Record<string, RuleValue>,
    thinkMs: info.thinkMs,
    seed: null,
  };
}

/** The create_table request for these settings: the player in seat 0, no move deadline (people think). */
export function createTableRequest(settings: TableChoice): Outgoing<'create_table'> {
  return {
    type: 'create_table',
    seats: ['client', ...settings.bots],
    preset: settings.preset,
    rules: settings.rules,
    thinkMs: settings.thinkMs,
    moveDeadlineMs: null,
    ...(settings.seed === null ? {} : { seed: settings.seed }),
  };
}

interface SetupProps {
  readonly welcome: Msg<'welcome'>;
  readonly initial: TableChoice;
  readonly busy: boolean;
  readonly onStart: (settings: TableChoice) => void;
}

export function Setup({ welcome, initial, busy, onStart }: SetupProps) {
  const [settings, setSettings] = useState<TableChoice>(initial);
  const update = (change: Partial<TableChoice>) => setSettings({ ...settings, ...change });
  const preset = welcome.presets.find((p) => p.name === settings.preset) ?? welcome.presets[0];
  const fields = ruleFields(welcome.ruleOptions, preset?.options ?? {});
  const players = settings.bots.length + 1;
  const lastBot = lastBotOf(welcome, settings.bots);
  const friends = settings.bots.filter((bot) => bot === FRIEND).length;
  const levels = levelsAt(welcome, settings.preset, players);
  const setPlayers = (count: number) => update({ bots: resizedBots(welcome, settings, count) });
  const setBot = (index: number, agent: string) => update({ bots: settings.bots.map((bot, i) => (i === index ? agent : bot)) });
  /** The first `count` seats after the player's for friends, bots in the rest. */
  const setFriends = (count: number) =>
    update({ bots: settings.bots.map((bot, i) => (i < count ? FRIEND : bot === FRIEND ? lastBot : bot)) });

  return html`<form
    class="setup"
    aria-labelledby="setup-title"
    onSubmit=${(event: Event) => {
      event.preventDefault();
      onStart(settings);
    }}
  >
    <h2 id="setup-title">New game</h2>
    <label class="row"
      >Rules
      <select
        name="preset"
        value=${settings.preset}
        onChange=${(e: Event) => {
          const name = (e.target as HTMLSelectElement).value;
          update({ preset: name, rules: {}, bots: seatableBots(welcome, settings.bots, name, players) });
        }}
      >
        ${welcome.presets.map((p) => html`<option key=${p.name} value=${p.name}>${p.name}</option>`)}
      </select>
    </label>
    <p class="hint preset-blurb">${preset ? presetBlurb(preset, fields) : null}</p>
    <label class="row"
      >Players
      <select name="players" value=${String(players)} onChange=${(e: Event) => setPlayers(Number((e.target as HTMLSelectElement).value))}>
        ${Array.from({ length: MAX_PLAYERS - MIN_PLAYERS + 1 }, (_, i) => MIN_PLAYERS + i).map(
          (n) => html`<option key=${n} value=${String(n)}>${n}</option>`,
        )}
      </select>
    </label>
    <${Friends} players=${players} friends=${friends} onFriends=${setFriends} />
    <${BotSeats}
      welcome=${welcome}
      settings=${settings}
      levels=${levels}
      onBots=${(bots: string[]) => update({ bots })}
      onChange=${setBot}
    />
    <label class="row"
      >Bot pace
      <select
        name="pace"
        value=${String(settings.thinkMs)}
        onChange=${(e: Event) => update({ thinkMs: Number((e.target as HTMLSelectElement).value) })}
      >
        ${BOT_PACES.map((p) => html`<option key=${p.label} value=${String(p.thinkMs)}>${p.label}</option>`)}
      </select>
    </label>
    <${HouseRules}
      fields=${fields}
      rules=${settings.rules}
      seed=${settings.seed}
      onRule=${(field: RuleField, value: RuleValue) => update({ rules: withRule(settings.rules, field, value) })}
      onSeed=${(seed: number | null) => update({ seed })}
    />
    <${DealButton} friends=${friends} busy=${busy} />
    <${Details} welcome=${welcome} preset=${preset} />
  </form>`;
}

/**
 * The bots kept where they can sit at a table of this preset and size: a level beyond those offered
 * there becomes the top one offered (the best bot stays the best bot), never another kind of bot;
 * the first bot only where the preset has no levels at all.
 */
function seatableBots(welcome: Msg<'welcome'>, bots: readonly string[], preset: string, count: number): string[] {
  const offered = levelsAt(welcome, preset, count);
  const fallback = offered.at(-1)?.name ?? welcome.agents[0]?.name ?? 'strong';
  return bots.map((bot) => (bot.startsWith('level:') && !offered.some((l) => l.name === bot) ? fallback : bot));
}

/** The bot new seats get: the last one chosen, else the server's first. */
function lastBotOf(welcome: Msg<'welcome'>, bots: readonly string[]): string {
  return bots.findLast((bot) => bot !== FRIEND) ?? welcome.agents[0]?.name ?? 'strong';
}

/** The seats after the player's at a table of `count`: those kept, new ones like the last bot. */
function resizedBots(welcome: Msg<'welcome'>, settings: TableChoice, count: number): string[] {
  const last = lastBotOf(welcome, settings.bots);
  return seatableBots(
    welcome,
    Array.from({ length: count - 1 }, (_, i) => settings.bots[i] ?? last),
    settings.preset,
    count,
  );
}

/** How many of the seats after the player's are for friends (the first ones). */
function Friends({
  players,
  friends,
  onFriends,
}: {
  readonly players: number;
  readonly friends: number;
  readonly onFriends: (count: number) => void;
}) {
  return html`<label class="row"
    >Friends
    <select name="friends" value=${String(friends)} onChange=${(e: Event) => onFriends(Number((e.target as HTMLSelectElement).value))}>
      ${Array.from({ length: players }, (_, n) => html`<option key=${n} value=${String(n)}>${n === 0 ? 'none: bots only' : `${n}, invited by a link`}</option>`)}
    </select>
  </label>`;
}

/** Deal, or with friends' seats Invite friends (the table then waits in its lobby). */
function DealButton({ friends, busy }: { readonly friends: number; readonly busy: boolean }) {
  return html`${
      friends > 0
        ? html`<p class="hint">You get a link to send: the game starts when you say, with bots in the seats nobody took.</p>`
        : null
    } <button type="submit" class="primary" disabled=${busy}>${friends > 0 ? 'Invite friends' : 'Deal'}</button>`;
}

/** The bot of each seat after the client's (a difficulty level for all, or any agent each), with a word on each bot chosen and the model it plays. */
function BotSeats({
  welcome,
  settings,
  levels,
  onBots,
  onChange,
}: {
  readonly welcome: Msg<'welcome'>;
  readonly settings: TableChoice;
  readonly levels: ReturnType<typeof levelsAt>;
  readonly onBots: (bots: string[]) => void;
  readonly onChange: (index: number, agent: string) => void;
}) {
  const { bots } = settings;
  const players = bots.length + 1;
  const botSeats = bots.filter((bot) => bot !== FRIEND);
  // `level` in welcome.agents stands for the levels, offered by name below.
  const seatAgents = welcome.agents.filter((a) => a.name !== 'level');
  return html`<fieldset>
    <legend>Bots</legend>
    <${Difficulty}
      levels=${levels}
      bots=${botSeats}
      anchor=${botName(welcome.levels[0]?.anchor ?? 'intermediate')}
      ratedAt=${[levelsRatedAt(welcome, settings.preset, players)].find((size) => size !== players) ?? null}
      onPick=${(level: string) => level !== '' && onBots(bots.map((bot) => (bot === FRIEND ? bot : level)))}
    />
    ${bots.map(
      (bot, i) =>
        html`<label class="row" key=${i}
          >Seat ${i + 2}
          <select name=${`seat-${i + 2}`} value=${bot} onChange=${(e: Event) => onChange(i, (e.target as HTMLSelectElement).value)}>
            <option value=${FRIEND}>A friend (invited by a link)</option>
            ${seatAgents.map((a) => html`<option key=${a.name} value=${a.name} title=${agentBlurb(a)}>${botName(a.name)}</option>`)}
            ${
              levels.length > 0
                ? html`<optgroup label="Levels">
                    ${levels.map((l) => html`<option key=${l.name} value=${l.name}>${levelLabel(l, levels.length)}</option>`)}
                  </optgroup>`
                : null
            }
          </select>
        </label>`,
    )}
    <ul class="hint bot-blurbs">
      ${[...new Set(botSeats)].map((name) => {
        const agent = welcome.agents.find((a) => a.name === name || (name.startsWith('level:') && a.name === 'level'));
        const note = agent ? modelNote(agent, settings.preset, players, Object.keys(settings.rules).length > 0) : null;
        return agent
          ? html`<li key=${name}>
              <b>${botName(name)}</b>: ${agentBlurb(agent)}${note ? html` <span class="model-note">It ${note}.</span>` : null}
            </li>`
          : null;
      })}
    </ul>
  </fieldset>`;
}

/** What the server says of its presets and bots, for developers: behind a toggle. */
function Details({
  welcome,
  preset,
}: {
  readonly welcome: Msg<'welcome'>;
  readonly preset: Msg<'welcome'>['presets'][number] | undefined;
}) {
  return html`<details class="details">
    <summary>Details</summary>
    ${preset ? html`<p class="hint"><b>${preset.name}</b> rules: ${preset.description}</p>` : null}
    <ul class="hint">
      ${welcome.agents.map((a) => html`<li key=${a.name}><b>${a.name}</b>: ${a.description}</li>`)}
    </ul>
    <p class="hint">
      Server ${welcome.server.name} ${welcome.server.version}, protocol ${welcome.version}, actions ${welcome.actionSpace}.
    </p>
  </details>`;
}
