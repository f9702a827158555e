/**
 * The page's session with the server, as one preact hook: the connection (and the table taken
 * back with its resume token after a drop or a reload), the table's model, the new-game
 * settings, the picked cards, the advisor, and the player's intents carried out (intents.ts
 * decides what each means; this sends it). App (app.ts) only lays it out.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { type Game, type Series, type TableInfo, dismissResult, isGuest, mySeat, newGame, nextSeries, receive } from './game.js';
import { HOST_LEFT, LOST_TABLE, connectionTrouble, joinTrouble, refusal, serverTrouble } from './errorWords.js';
import { dropInvite, inviteIn, tableOfInvite } from './invite.js';
import { type Effect, type Intent, type PlannedDraw, adviceRequest, followUp, resolveIntent, type ActMove } from './intents.js';
import { belongsToTarget, intentOf } from './keyboard.js';
import { type Answer, type LinkStatus, type Outgoing, ServerLink } from './link.js';
import type { Msg } from '../client/protocol.js';
import { type TableChoice, createTableRequest, settingsOf } from './setup.js';
import { type Sound, useSound } from './sound.js';
import type { Stats } from './stats.js';
import { useStats } from './statsKept.js';
import { type SavedTable, forgetTable, loadAdvisor, loadTable, loadToken, saveAdvisor, saveTable, saveToken } from './storage.js';

/**
 * ws://host/ of the page's own server, with the page's ?token= (or the one the player typed) when
 * it has one, and ?table= of the table to take back: behind nginx (deploy/) that routes the
 * connection to the table's process.
 */
export function serverUrl(location: Location, table?: string, typed: string | null = null): string {
  const url = new URL('/', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const token = new URLSearchParams(location.search).get('token') ?? typed;
  if (token !== null) url.searchParams.set('token', token);
  if (table !== undefined) url.searchParams.set('table', table);
  return url.href;
}

/** Sends a request on the link; resolves with its reply or the server's refusal (link.ts). */
type SendRequest = <M extends Outgoing>(message: M) => Promise<Answer<M['type']>>;

/**
 * Something to tell the player: beside the hand (a refused move, where the player is looking) or
 * above the page (the server, the table), with a one-click new game where the table is gone.
 */
export interface Notice {
  readonly text: string;
  readonly place: 'hand' | 'page';
  readonly newGame?: boolean;
}

const atHand = (text: string): Notice => ({ text, place: 'hand' });
const onPage = (text: string, newGame = false): Notice => ({ text, place: 'page', newGame });

export interface Session {
  readonly linkStatus: LinkStatus;
  readonly welcome: Msg<'welcome'> | null;
  readonly game: Game | null;
  /** The settings of the last deal (the form starts from them). */
  readonly settings: TableChoice | null;
  readonly selected: readonly number[];
  readonly notice: Notice | null;
  readonly busy: boolean;
  /** The card of the previous group chosen with T (Enter takes it). */
  readonly takeChoice: string | null;
  /** The server wants a token: whether the player already gave one (that it refused). */
  readonly tokenGiven: boolean;
  readonly unlock: (token: string) => void;
  readonly advisor: AdvisorState;
  /** Keys and clicks: what the player means. */
  readonly dispatch: (intent: Intent) => void;
  readonly deal: (settings: TableChoice) => void;
  /** The invite of the link this page was opened with (`?join=CODE`), until it is used. */
  readonly joinCode: string | null;
  /** Takes a friend's seat with the link's invite, under the name the player gave. */
  readonly join: (name: string) => void;
  /** The creator starts a table waiting in its lobby (bots in the seats nobody took). */
  readonly start: () => void;
  readonly newGameForm: () => void;
  readonly playAgain: () => void;
  readonly dismiss: () => void;
  readonly chooseAdvisor: (agent: string) => void;
  readonly sound: Sound;
  /** The player's statistics in this browser, and starting them afresh. */
  readonly stats: Stats;
  readonly resetStats: () => void;
}

/** The hand as shown, as one key (the picks are of it). */
function handOf(game: Game | null): string {
  return game?.state?.view.hand.join(' ') ?? '';
}

/** A state setter, as useState gives it. */
type Setter<T> = (value: T | ((previous: T) => T)) => void;

/** What the parts of the session share: the link, the latest game, the step being sent, and the setters. */
interface SessionCore {
  readonly request: SendRequest;
  readonly latest: { current: Game | null };
  /** The counter of the state an action was sent for and not answered yet. */
  readonly actedAt: { current: number | null };
  /** The draw planned with the group being laid. */
  readonly planned: { current: PlannedDraw | null };
  readonly setGame: Setter<Game | null>;
  readonly setNotice: Setter<Notice | null>;
  readonly setBusy: Setter<boolean>;
  /** Picks cards of the hand as shown now (a new hand clears them). */
  readonly setSelected: (cards: readonly number[]) => void;
  readonly setSettings: Setter<TableChoice | null>;
}

export function useSession(): Session {
  const [linkStatus, setLinkStatus] = useState<LinkStatus>('connecting');
  const [welcome, setWelcome] = useState<Msg<'welcome'> | null>(null);
  const [game, setGame] = useState<Game | null>(null);
  const [settings, setSettings] = useState<TableChoice | null>(null);
  // The picks with the hand they were picked from: a new hand (a draw, a new round) clears them in
  // the same render, never after a pick made meanwhile.
  const [selection, setSelection] = useState<{ readonly hand: string; readonly cards: readonly number[] }>({ hand: '', cards: [] });
  const [notice, setNotice] = useState<Notice | null>(null);
  const [takeChoice, setTakeChoice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** Counts the times the table was taken back, so that the advice is asked again on the new connection. */
  const [resumes, setResumes] = useState(0);
  const [joinCode, setJoinCode] = useState(() => inviteIn(window.location));

  const link = useRef<ServerLink | null>(null);
  const latest = useRef<Game | null>(game);
  latest.current = game;
  const selected = selection.hand === handOf(game) ? selection.cards : [];
  const setSelected = (cards: readonly number[]) => setSelection({ hand: handOf(latest.current), cards });
  const actedAt = useRef<number | null>(null);
  const planned = useRef<PlannedDraw | null>(null);
  const request: SendRequest = (message) =>
    link.current ? link.current.request(message) : Promise.reject(new Error('not connected to the server'));
  const core: SessionCore = { request, latest, actedAt, planned, setGame, setNotice, setBusy, setSelected, setSettings };

  useConnection(core, link, { setLinkStatus, setWelcome, setResumes });
  const { deal, newGameForm } = tableActions(core);
  const friends = friendActions(core, () => setJoinCode(null));
  useSavedTable(game);
  const [stats, resetStats] = useStats(game);

  const state = game?.state ?? null;
  const sound = useSound(game, state !== null && game?.over === null && state.toMove === mySeat(game) && state.legal.length > 0);
  const dispatch = useMoves(core, state, { selected, takeChoice, setTakeChoice }, () => advisor.toggle());
  const advisor = useAdvisor(welcome, state, resumes, request, () =>
    actedAt.current === latest.current?.state?.counter ? 'sending' : planned.current,
  );
  useKeys(dispatch, () => latest.current !== null);

  return {
    linkStatus,
    welcome,
    game,
    settings,
    selected,
    notice,
    busy,
    takeChoice,
    tokenGiven: loadToken() !== null || new URLSearchParams(window.location.search).has('token'),
    unlock: (token) => {
      saveToken(token.trim());
      link.current?.unlock();
    },
    advisor,
    dispatch,
    deal: (chosen) => void deal(chosen),
    joinCode,
    join: (name) => joinCode !== null && void friends.join(joinCode, name),
    start: () => void friends.start(),
    newGameForm,
    playAgain: () => game && void playAgain(game, deal, friends.start),
    dismiss: () => setGame((g) => g && dismissResult(g)),
    chooseAdvisor: advisor.choose,
    sound,
    stats,
    resetStats,
  };
}

/** The table as it stands, saved in the browser whenever its rounds or log change, so that a reload takes it back. */
function useSavedTable(game: Game | null): void {
  useEffect(() => {
    if (game === null) return;
    const { info, rounds, log, roundStartedAt, series } = game;
    saveTable({
      table: info.table,
      token: info.token,
      rounds,
      log,
      roundStartedAt,
      series,
      settings: isGuest(game) ? undefined : settingsOf(info),
    });
  }, [game?.rounds, game?.log, game?.info.table]);
}

/**
 * Play again: the same settings, and the running score goes on. At a table with friends, they come
 * along (create_table `follows`: each still there is told next_table); when every friend's seat is
 * taken again, the game starts at once.
 */
async function playAgain(previous: Game, deal: Deal, start: (table?: string) => Promise<void>): Promise<void> {
  const withFriends = previous.info.seats.some((s) => s.player === 'guest');
  const info = await deal(settingsOf(previous.info), { series: nextSeries(previous), follows: withFriends ? previous.info.table : null });
  if (info?.lobby === true && info.seats.every((s) => s.player !== 'guest' || s.present === true)) await start(info.table);
}

/** A deal that continues a series: the games before, and the friends' table it follows (null: none). */
interface Rematch {
  readonly series: Series;
  readonly follows: string | null;
}

/** The connection: started once; the saved table taken back at each welcome (a reload, a dropped connection). */
function useConnection(
  core: SessionCore,
  link: { current: ServerLink | null },
  on: { setLinkStatus: Setter<LinkStatus>; setWelcome: Setter<Msg<'welcome'> | null>; setResumes: Setter<number> },
): void {
  useEffect(() => {
    const connection = new ServerLink(() => serverUrl(window.location, tableToReach(), loadToken()), {
      status: on.setLinkStatus,
      locked: () =>
        fetch('/health', { cache: 'no-store' })
          .then((answer) => answer.json() as Promise<{ tokenRequired?: boolean }>)
          .then((health) => health.tokenRequired === true),
      message: (message) => {
        core.setGame((g) => (g === null ? g : receive(g, message)));
        if (message.type === 'table_closed') tableClosed(core, message);
        if (message.type === 'next_table') followed(core, message);
      },
      ready: (hello) => {
        on.setWelcome(hello);
        const saved = loadTable();
        if (saved !== null && tableToReach() === saved.table) void resume(core, saved, on.setResumes);
      },
    });
    link.current = connection;
    connection.start();
    return () => connection.stop();
  }, []);
}

/**
 * The table this page's connection is for (behind nginx, `?table=` routes it to the table's
 * process): the one a link's invite opens while the page has not joined it, else the saved one.
 */
function tableToReach(): string | undefined {
  const code = inviteIn(window.location);
  return code === null ? loadTable()?.table : tableOfInvite(code);
}

async function resume(core: SessionCore, saved: SavedTable, setResumes: Setter<number>): Promise<void> {
  const reply = await core.request({ type: 'resume', table: saved.table, token: saved.token }).catch(() => null);
  if (reply === null) return;
  if (reply.type === 'error') {
    forgetTable();
    if (saved.settings !== undefined) core.setSettings(saved.settings);
    core.setGame(null);
    core.setNotice(onPage(reply.code === 'unknown_table' ? LOST_TABLE : serverTrouble(reply), true));
    return;
  }
  core.actedAt.current = null;
  core.planned.current = null;
  core.setNotice(null);
  setResumes((n) => n + 1);
  const info = tableInfo(reply);
  core.setGame((g) => (g !== null && g.info.table === info.table ? { ...g, info } : newGame(info, saved)));
}

function tableClosed(core: SessionCore, message: Msg<'table_closed'>): void {
  if (core.latest.current?.info.table !== message.table) return;
  if (message.reason === 'resumed_elsewhere')
    core.setNotice(onPage('This game is now played in another window or tab. Reload the page to take it back here.'));
  else if (message.reason === 'idle') core.setNotice(onPage('This game was closed after a long pause.', true));
  else if (message.reason === 'creator_left') core.setNotice(onPage(HOST_LEFT, true));
  else core.setNotice(onPage('The server is shutting down: this game cannot go on.', true));
}

/** The host played again with friends: this page follows to its seat at the next table, and the running score goes on. */
function followed(core: SessionCore, message: Msg<'next_table'>): void {
  const previous = core.latest.current;
  if (previous === null || previous.info.table !== message.follows) return;
  const info = tableInfo(message);
  const series = nextSeries(previous);
  saveTable({ table: info.table, token: info.token, rounds: [], log: [], roundStartedAt: 0, series });
  seated(core, info, series);
}

type Deal = (chosen: TableChoice, then?: Rematch) => Promise<TableInfo | null>;

/**
 * Dealing a new table (leaving the one before; a rematch with friends leaves it on the server's
 * side as its guests follow), and going back to the new-game form. `deal` resolves with the table
 * dealt (null if refused).
 */
function tableActions(core: SessionCore): { deal: Deal; newGameForm: () => void } {
  const { request } = core;
  async function deal(chosen: TableChoice, then?: Rematch): Promise<TableInfo | null> {
    core.setSettings(chosen);
    core.setBusy(true);
    core.setNotice(null);
    const previous = core.latest.current;
    const follows = then?.follows ?? null;
    if (previous !== null && follows === null) await request({ type: 'leave', table: previous.info.table }).catch(() => null);
    const wanted = { ...createTableRequest(chosen), ...(follows === null ? {} : { follows }) };
    const reply = await request(wanted).catch((error: Error) => error);
    core.setBusy(false);
    if (reply instanceof Error || reply.type === 'error') {
      core.setNotice(onPage(reply instanceof Error ? connectionTrouble(reply) : serverTrouble(reply)));
      return null;
    }
    const info = tableInfo(reply);
    const series = then?.series;
    saveTable({ table: info.table, token: info.token, rounds: [], log: [], roundStartedAt: 0, series, settings: chosen });
    seated(core, info, series);
    return info;
  }
  function newGameForm(): void {
    const previous = core.latest.current;
    if (previous !== null && previous.over === null && !window.confirm('Leave this game for a new one?')) return;
    if (previous !== null) {
      core.setSettings(settingsOf(previous.info));
      void request({ type: 'leave', table: previous.info.table }).catch(() => null);
    }
    forgetTable();
    core.setGame(null);
    core.setNotice(null);
  }
  return { deal, newGameForm };
}

/** A table this page now plays from its start (dealt, joined or followed; a rematch continues `series`): nothing sent or picked yet. */
function seated(core: SessionCore, info: TableInfo, series?: Series): void {
  core.actedAt.current = null;
  core.planned.current = null;
  core.setSelected([]);
  core.setGame(newGame(info, { rounds: [], log: [], roundStartedAt: 0, series }));
}

/** Joining a friend's table with the link's invite, and starting one's own table from its lobby. */
function friendActions(
  core: SessionCore,
  used: () => void,
): { join: (code: string, name: string) => Promise<void>; start: (table?: string) => Promise<void> } {
  async function join(code: string, name: string): Promise<void> {
    core.setBusy(true);
    core.setNotice(null);
    const named = name.trim() === '' ? {} : { name: name.trim() };
    const reply = await core.request({ type: 'join_table', code, ...named }).catch((error: Error) => error);
    core.setBusy(false);
    if (reply instanceof Error) return core.setNotice(onPage(connectionTrouble(reply)));
    if (reply.type === 'error') return core.setNotice(onPage(joinTrouble(reply)));
    const info = tableInfo(reply);
    saveTable({ table: info.table, token: info.token, rounds: [], log: [], roundStartedAt: 0 });
    dropInvite(window.location, window.history);
    used();
    seated(core, info);
  }
  async function start(table = core.latest.current?.info.table): Promise<void> {
    if (table === undefined) return;
    core.setBusy(true);
    const reply = await core.request({ type: 'start_table', table }).catch((error: Error) => error);
    core.setBusy(false);
    if (reply instanceof Error) core.setNotice(onPage(connectionTrouble(reply)));
    else if (reply.type === 'error') core.setNotice(onPage(serverTrouble(reply)));
  }
  return { join, start };
}

/** The player's intents carried out (sent as actions), and the follow-up step after a lay; returns the dispatcher. */
interface Picks {
  readonly selected: readonly number[];
  readonly takeChoice: string | null;
  readonly setTakeChoice: Setter<string | null>;
}

function useMoves(core: SessionCore, state: Game['state'], picks: Picks, toggleAdvisor: () => void): (intent: Intent) => void {
  const { selected, takeChoice, setTakeChoice } = picks;
  const { actedAt, planned } = core;
  async function act(move: ActMove, then: PlannedDraw | null): Promise<void> {
    const current = core.latest.current?.state;
    if (!current || actedAt.current === current.counter) return;
    actedAt.current = current.counter;
    planned.current = then;
    core.setBusy(true);
    core.setNotice(null);
    const reply = await core
      .request({ type: 'act', table: current.table, counter: current.counter, ...move })
      .catch((error: Error) => error);
    core.setBusy(false);
    if (reply instanceof Error || reply.type === 'error') {
      actedAt.current = null;
      planned.current = null;
      if (reply instanceof Error) core.setNotice(atHand(connectionTrouble(reply)));
      else if (reply.code !== 'stale_state') core.setNotice(atHand(refusal(reply)));
    }
  }

  function perform(effect: Effect): void {
    switch (effect.type) {
      case 'none':
        return;
      case 'select':
        return core.setSelected(effect.selected);
      case 'act':
        return void act(effect.move, effect.then);
      case 'notice':
        return core.setNotice(atHand(effect.text));
      case 'chooseTake':
        return setTakeChoice(effect.card);
      case 'toggleAdvisor':
        return toggleAdvisor();
      case 'dismissResult':
        return core.setGame((g) => g && dismissResult(g));
    }
  }

  // After laying: the draw that was planned with it; after a draw with nothing on offer: the pass.
  useEffect(() => {
    if (state === null || actedAt.current === state.counter) return;
    const move = followUp(state, planned.current);
    planned.current = null;
    if (move !== null) void act(move, null);
  }, [state]);

  useEffect(() => setTakeChoice(null), [state?.counter]);

  return (intent: Intent): void => {
    const current = core.latest.current;
    if (current === null) return;
    const sending = current.state !== null && actedAt.current === current.state.counter;
    perform(resolveIntent(intent, { state: current.state, selected, resultShown: current.unseenResult !== null, sending, takeChoice }));
  };
}

interface AdvisorState {
  readonly on: boolean;
  readonly agent: string;
  /** The advice, with the counter of the state it is for (null until it is there, or when off). */
  readonly advice: { readonly counter: number; readonly advice: Msg<'advice'> } | null;
  readonly toggle: () => void;
  readonly choose: (agent: string) => void;
}

/**
 * The advisor: on the player's choices, the chosen bot's advice for the current state; asked
 * again when the table is taken back on a new connection (`resumes`). `pending` says whether a
 * move of the player's is on its way or a draw is planned (then there is nothing to advise).
 */
function useAdvisor(
  welcome: Msg<'welcome'> | null,
  state: Msg<'state'> | null,
  resumes: number,
  request: SendRequest,
  pending: () => PlannedDraw | 'sending' | null,
): AdvisorState {
  const [on, setOn] = useState(() => loadAdvisor()?.on ?? false);
  const [chosen, setChosen] = useState(() => loadAdvisor()?.agent ?? '');
  const [advice, setAdvice] = useState<AdvisorState['advice']>(null);
  const offered = welcome?.agents.some((a) => a.name === chosen) ?? true;
  const agent = (offered && chosen) || (welcome === null ? '' : (welcome.agents.find((a) => a.explains) ?? welcome.agents[0]).name);
  useEffect(() => saveAdvisor({ on, agent: chosen }), [on, chosen]);
  const counter = useRef<number | null>(null);
  counter.current = state?.counter ?? null;

  useEffect(() => {
    setAdvice(null);
    const waiting = pending();
    if (!on || waiting === 'sending') return;
    const wanted = adviceRequest(state, agent, waiting);
    if (wanted === null || state === null) return;
    const asked = state.counter;
    request(wanted).then(
      (reply) => {
        if (reply.type !== 'error' && counter.current === asked) setAdvice({ counter: asked, advice: reply });
      },
      () => undefined,
    );
  }, [on, agent, state?.counter, state?.toMove, resumes]);

  return {
    on,
    agent,
    advice: on && advice !== null && advice.counter === state?.counter ? advice : null,
    toggle: () => setOn((was) => !was),
    choose: setChosen,
  };
}

/** Keys go where clicks go: what a key press means (keyboard.ts), to `dispatch`, while there is a table (`active`). */
function useKeys(dispatch: (intent: Intent) => void, active: () => boolean): void {
  const latest = useRef(dispatch);
  latest.current = dispatch;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (belongsToTarget(event, event.target as HTMLInputElement | null)) return;
      const intent = intentOf(event);
      if (intent === null || !active()) return;
      event.preventDefault();
      latest.current(intent);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

/** The table as the page keeps it, from the reply that seated it here: `seat` is a friend's seat (joined, followed, or resumed with their token). */
function tableInfo(reply: Msg<'table_created'> | Msg<'resumed'> | Msg<'joined'> | Msg<'next_table'>): TableInfo {
  const { table, token, preset, rules, settledRules, players, seats, thinkMs, moveDeadlineMs, lobby } = reply;
  const invite = reply.type === 'joined' || reply.type === 'next_table' ? null : reply.invite;
  const seat = reply.type === 'table_created' ? null : reply.seat;
  return { table, token, preset, rules, settledRules, players, seats, thinkMs, moveDeadlineMs, invite, lobby, seat };
}
