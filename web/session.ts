/**
 * The page's session with the server, as one preact hook: the connection (and the table taken
 * back with its resume token after a drop or a reload), the table's model, the new-game
 * settings, the picked cards, the advisor, and the player's intents carried out (intents.ts
 * decides what each means; this sends it). App (app.ts) only lays it out.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { type Game, type TableInfo, dismissResult, newGame, receive } from './game.js';
import { type Effect, type Intent, type PlannedDraw, adviceRequest, followUp, refusal, resolveIntent, type ActMove } from './intents.js';
import { belongsToTarget, intentOf } from './keyboard.js';
import { type LinkStatus, type Outgoing, ServerLink } from './link.js';
import type { Msg, ServerMessage } from './protocol.js';
import { type TableSettings, createTableRequest, settingsOf } from './setup.js';
import { type SavedTable, forgetTable, loadTable, saveTable } from './storage.js';

/** ws://host/ of the page's own server, with the page's ?token= when it has one. */
export function serverUrl(location: Location): string {
  const url = new URL('/', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const token = new URLSearchParams(location.search).get('token');
  if (token !== null) url.searchParams.set('token', token);
  return url.href;
}

export interface Session {
  readonly linkStatus: LinkStatus;
  readonly welcome: Msg<'welcome'> | null;
  readonly game: Game | null;
  /** The settings of the last deal (the form starts from them). */
  readonly settings: TableSettings | null;
  readonly selected: readonly number[];
  readonly notice: string | null;
  readonly busy: boolean;
  readonly advisor: { readonly on: boolean; readonly agent: string; readonly advice: { counter: number; advice: Msg<'advice'> } | null };
  /** Keys and clicks: what the player means. */
  readonly dispatch: (intent: Intent) => void;
  readonly deal: (settings: TableSettings) => void;
  readonly newGameForm: () => void;
  readonly playAgain: () => void;
  readonly dismiss: () => void;
  readonly chooseAdvisor: (agent: string) => void;
}

export function useSession(): Session {
  const [linkStatus, setLinkStatus] = useState<LinkStatus>('connecting');
  const [welcome, setWelcome] = useState<Msg<'welcome'> | null>(null);
  const [game, setGame] = useState<Game | null>(null);
  const [settings, setSettings] = useState<TableSettings | null>(null);
  const [selected, setSelected] = useState<readonly number[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [advisorOn, setAdvisorOn] = useState(false);
  const [advisorAgent, setAdvisorAgent] = useState('');
  const [advice, setAdvice] = useState<{ counter: number; advice: Msg<'advice'> } | null>(null);
  /** Counts the times the table was taken back, so that the advice is asked again on the new connection. */
  const [resumes, setResumes] = useState(0);

  const link = useRef<ServerLink | null>(null);
  const latest = useRef<Game | null>(game);
  latest.current = game;
  const actedAt = useRef<number | null>(null);
  const planned = useRef<PlannedDraw | null>(null);

  const request = (message: Outgoing): Promise<ServerMessage> =>
    link.current ? link.current.request(message) : Promise.reject(new Error('not connected to the server'));

  // ---------------------------------------------------------------- the connection

  useEffect(() => {
    const connection = new ServerLink(serverUrl(window.location), {
      status: setLinkStatus,
      message: (message) => {
        setGame((g) => (g === null ? g : receive(g, message)));
        if (message.type === 'table_closed') tableClosed(message);
      },
      ready: (hello) => {
        setWelcome(hello);
        setAdvisorAgent((agent) => agent || (hello.agents.find((a) => a.explains) ?? hello.agents[0]).name);
        const saved = loadTable();
        if (saved !== null) void resume(saved);
      },
    });
    link.current = connection;
    connection.start();
    return () => connection.stop();
  }, []);

  async function resume(saved: SavedTable): Promise<void> {
    const reply = await request({ type: 'resume', table: saved.table, token: saved.token }).catch(() => null);
    if (reply === null) return;
    if (reply.type !== 'resumed') {
      forgetTable();
      setGame(null);
      setNotice(`Your table could not be taken back (${reply.type === 'error' ? reply.message : reply.type}): deal a new one.`);
      return;
    }
    actedAt.current = null;
    planned.current = null;
    setNotice(null);
    setResumes((n) => n + 1);
    const info = tableInfo(reply);
    setGame((g) => (g !== null && g.info.table === info.table ? { ...g, info } : newGame(info, saved.rounds)));
  }

  function tableClosed(message: Msg<'table_closed'>): void {
    if (latest.current?.info.table !== message.table) return;
    if (message.reason === 'resumed_elsewhere') setNotice('This table is now played in another window. Reload the page to take it back.');
    else if (message.reason === 'idle') setNotice('The table was closed after a long pause. Deal a new one.');
    else setNotice('The server is shutting down.');
  }

  // ---------------------------------------------------------------- tables

  async function deal(chosen: TableSettings): Promise<void> {
    setSettings(chosen);
    setBusy(true);
    setNotice(null);
    const previous = latest.current;
    if (previous !== null) await request({ type: 'leave', table: previous.info.table }).catch(() => null);
    const reply = await request(createTableRequest(chosen)).catch((error: Error) => error);
    setBusy(false);
    if (reply instanceof Error) return setNotice(reply.message);
    if (reply.type !== 'table_created') return setNotice(reply.type === 'error' ? reply.message : `unexpected ${reply.type}`);
    const info = tableInfo(reply);
    saveTable({ table: info.table, token: info.token, rounds: [] });
    actedAt.current = null;
    planned.current = null;
    setSelected([]);
    setAdvice(null);
    setGame(newGame(info));
  }

  function newGameForm(): void {
    const previous = latest.current;
    if (previous !== null && previous.over === null && !window.confirm('Leave this game for a new one?')) return;
    if (previous !== null) {
      setSettings(settingsOf(previous.info));
      void request({ type: 'leave', table: previous.info.table }).catch(() => null);
    }
    forgetTable();
    setGame(null);
    setNotice(null);
  }

  useEffect(() => {
    if (game !== null) saveTable({ table: game.info.table, token: game.info.token, rounds: game.rounds });
  }, [game?.rounds]);

  // ---------------------------------------------------------------- moves

  const state = game?.state ?? null;

  async function act(move: ActMove, then: PlannedDraw | null): Promise<void> {
    const current = latest.current?.state;
    if (!current || actedAt.current === current.counter) return;
    actedAt.current = current.counter;
    planned.current = then;
    setBusy(true);
    setNotice(null);
    const reply = await request({ type: 'act', table: current.table, counter: current.counter, ...move }).catch((error: Error) => error);
    setBusy(false);
    if (reply instanceof Error || reply.type === 'error') {
      actedAt.current = null;
      planned.current = null;
      if (reply instanceof Error) setNotice(`${reply.message}: reconnecting…`);
      else if (reply.code !== 'stale_state') setNotice(refusal(reply));
    }
  }

  function perform(effect: Effect): void {
    switch (effect.type) {
      case 'none':
        return;
      case 'select':
        return setSelected(effect.selected);
      case 'act':
        return void act(effect.move, effect.then);
      case 'notice':
        return setNotice(effect.text);
      case 'toggleAdvisor':
        return setAdvisorOn((on) => !on);
      case 'dismissResult':
        return setGame((g) => g && dismissResult(g));
    }
  }

  const moment = useRef({ selected, resultShown: false });
  moment.current = { selected, resultShown: game?.unseenResult != null };
  const dispatch = (intent: Intent): void => {
    const current = latest.current;
    if (current === null) return;
    const sending = current.state !== null && actedAt.current === current.state.counter;
    perform(resolveIntent(intent, { state: current.state, ...moment.current, sending }));
  };

  // After laying: the draw that was planned with it; after a draw with nothing on offer: the pass.
  useEffect(() => {
    if (state === null || actedAt.current === state.counter) return;
    const move = followUp(state, planned.current);
    planned.current = null;
    if (move !== null) void act(move, null);
  }, [state]);

  useEffect(() => setSelected([]), [state?.view.hand.join(' ')]);

  // ---------------------------------------------------------------- advisor

  useEffect(() => {
    setAdvice(null);
    if (!advisorOn || state === null || actedAt.current === state.counter) return;
    const wanted = adviceRequest(state, advisorAgent, planned.current);
    if (wanted === null) return;
    const counter = state.counter;
    request(wanted).then(
      (reply) => {
        if (reply.type === 'advice' && latest.current?.state?.counter === counter) setAdvice({ counter, advice: reply });
      },
      () => undefined,
    );
  }, [advisorOn, advisorAgent, state?.counter, state?.toMove, resumes]);

  // ---------------------------------------------------------------- keys

  const dispatchRef = useRef(dispatch);
  dispatchRef.current = dispatch;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (belongsToTarget(event, event.target as HTMLInputElement | null)) return;
      const intent = intentOf(event);
      if (intent === null || latest.current === null) return;
      event.preventDefault();
      dispatchRef.current(intent);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const shownAdvice = advisorOn && advice !== null && advice.counter === state?.counter ? advice : null;
  return {
    linkStatus,
    welcome,
    game,
    settings,
    selected,
    notice,
    busy,
    advisor: { on: advisorOn, agent: advisorAgent, advice: shownAdvice },
    dispatch,
    deal: (chosen) => void deal(chosen),
    newGameForm,
    playAgain: () => game && void deal(settingsOf(game.info)),
    dismiss: () => setGame((g) => g && dismissResult(g)),
    chooseAdvisor: setAdvisorAgent,
  };
}

function tableInfo(reply: Msg<'table_created'> | Msg<'resumed'>): TableInfo {
  const { table, token, preset, rules, settledRules, players, seats, thinkMs, moveDeadlineMs } = reply;
  return { table, token, preset, rules, settledRules, players, seats, thinkMs, moveDeadlineMs };
}
