/**
 * The page: connects to the server it was loaded from, shows the new-game form until a table
 * is dealt, then the table, the advisor and the scores. Every move goes through the protocol
 * (`act` with an id from `state.legal`); the page keeps the table's resume token so that a
 * dropped connection or a reload takes the same table back.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { Advisor } from './advisor.js';
import { sortForDisplay } from './cards.js';
import { type Game, type TableInfo, dismissResult, mySeat, newGame, receive, seatName } from './game.js';
import { html } from './html.js';
import { belongsToTarget, commandFor, type Command } from './keyboard.js';
import { type LinkStatus, ServerLink } from './link.js';
import type { LegalAction, Msg, ServerMessage } from './protocol.js';
import { GameOver, RoundResultDialog, ScoreTable } from './results.js';
import { discardIdOf, legalDiscardFor } from './selection.js';
import { Setup, type TableSettings, createTableRequest, defaultSettings, settingsOf } from './setup.js';
import { type SavedTable, forgetTable, loadTable, saveTable } from './storage.js';
import { TableView } from './tableView.js';

/** What to draw once the picked cards are laid (a click on the deck or a pickable card does both). */
type PlannedDraw = { readonly kind: 'deck' } | { readonly kind: 'take'; readonly card: string };

const LINK_WORDS: Record<LinkStatus, string> = { connecting: 'connecting…', open: 'connected', reconnecting: 'reconnecting…' };

/** ws://host/ of the page's own server, with the page's ?token= when it has one. */
export function serverUrl(location: Location): string {
  const url = new URL('/', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const token = new URLSearchParams(location.search).get('token');
  if (token !== null) url.searchParams.set('token', token);
  return url.href;
}

export function App() {
  const [linkStatus, setLinkStatus] = useState<LinkStatus>('connecting');
  const [welcome, setWelcome] = useState<Msg<'welcome'> | null>(null);
  const [game, setGame] = useState<Game | null>(null);
  const [settings, setSettings] = useState<TableSettings | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [advisorOn, setAdvisorOn] = useState(false);
  const [advisorAgent, setAdvisorAgent] = useState('');
  /** The advice, with the counter of the state it is for. */
  const [advice, setAdvice] = useState<{ counter: number; advice: Msg<'advice'> } | null>(null);

  const link = useRef<ServerLink | null>(null);
  const latest = useRef<Game | null>(game);
  latest.current = game;
  const actedAt = useRef<number | null>(null);
  const planned = useRef<PlannedDraw | null>(null);

  const request = (message: Parameters<ServerLink['request']>[0]): Promise<ServerMessage> =>
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
  const myMove = state !== null && state.toMove === state.seat && state.legal.length > 0;
  const shownAdvice = advisorOn && advice !== null && advice.counter === state?.counter ? advice : null;

  async function act(action: number): Promise<void> {
    const current = latest.current?.state;
    if (!current || actedAt.current === current.counter) return;
    actedAt.current = current.counter;
    setBusy(true);
    setNotice(null);
    const reply = await request({ type: 'act', table: current.table, action, counter: current.counter }).catch((error: Error) => error);
    setBusy(false);
    if (reply instanceof Error || reply.type === 'error') {
      actedAt.current = null;
      planned.current = null;
      if (reply instanceof Error) setNotice(`${reply.message}: reconnecting…`);
      else if (reply.code !== 'stale_state') setNotice(explain(reply));
    }
  }

  /** Lays the picked cards; a pick that is no legal group goes to the server anyway, which says why. */
  function lay(then: PlannedDraw | null): void {
    const current = latest.current?.state;
    if (!current || current.toMove !== current.seat) return;
    const hand = sortForDisplay(current.view.hand);
    const cards = selected.map((i) => hand[i]);
    if (cards.length === 0) return setNotice('Pick the cards to lay first: click them or press their numbers.');
    const legal = legalDiscardFor(cards, current.legal);
    planned.current = legal ? then : null;
    void act(legal ? legal.action : discardIdOf(current.view.hand, cards));
  }

  function draw(planning: PlannedDraw): void {
    const current = latest.current?.state;
    if (!current) return;
    if (current.view.phase === 'turn' && selected.length > 0) return lay(planning);
    const action = current.legal.find((l) =>
      planning.kind === 'deck' ? l.kind === 'draw' : l.kind === 'take' && l.cards[0] === planning.card,
    );
    if (action) void act(action.action);
  }

  // After laying: the draw that was planned with it; after a draw with nothing on offer: the pass.
  useEffect(() => {
    if (state === null || !myMove || actedAt.current === state.counter) return;
    const plan = planned.current;
    if (plan !== null && state.view.phase === 'draw') {
      planned.current = null;
      return draw(plan);
    }
    if (state.legal.length === 1 && state.legal[0].kind === 'pass') void act(state.legal[0].action);
  }, [state]);

  useEffect(() => setSelected([]), [state?.view.hand.join(' ')]);

  function pick(index: number): void {
    if (state === null || index >= state.view.hand.length) return;
    setSelected((chosen) => (chosen.includes(index) ? chosen.filter((i) => i !== index) : [...chosen, index]));
  }

  // ---------------------------------------------------------------- advisor

  useEffect(() => {
    setAdvice(null);
    if (!advisorOn || state === null || !myMove || planned.current !== null || actedAt.current === state.counter) return;
    if (state.legal.length === 1 && state.legal[0].kind === 'pass') return;
    const counter = state.counter;
    request({ type: 'advise', table: state.table, agent: advisorAgent }).then(
      (reply) => {
        if (reply.type === 'advice' && latest.current?.state?.counter === counter) setAdvice({ counter, advice: reply });
      },
      () => undefined,
    );
  }, [advisorOn, advisorAgent, state?.counter, myMove]);

  // ---------------------------------------------------------------- keys

  const commandRef = useRef<(command: Command) => void>(() => undefined);
  commandRef.current = (command) => {
    if (game?.unseenResult) {
      if (command.type === 'clear') setGame((g) => g && dismissResult(g));
      return;
    }
    const legal = myMove && state ? state.legal : [];
    const offer = (kind: LegalAction['kind']) => legal.find((l) => l.kind === kind);
    const play = (action: LegalAction | undefined) => action && void act(action.action);
    switch (command.type) {
      case 'pick':
        return pick(command.index);
      case 'discard':
        return lay(null);
      case 'deck':
        return draw({ kind: 'deck' });
      case 'take': {
        const first = state?.view.previous.pickable[0];
        return first === undefined ? undefined : draw({ kind: 'take', card: first });
      }
      case 'yaniv':
      case 'quick':
      case 'slapdown':
      case 'pass':
        return play(offer(command.type));
      case 'advisor':
        return setAdvisorOn((on) => !on);
      case 'clear':
        return setSelected([]);
    }
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (belongsToTarget(event, event.target as HTMLInputElement | null)) return;
      const command = commandFor(event);
      if (command === null || latest.current === null) return;
      event.preventDefault();
      commandRef.current(command);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // ---------------------------------------------------------------- the page

  const playAgain = () => game && void deal(settingsOf(game.info));
  return html`<header class="top">
      <h1>Yaniv</h1>
      <span class=${`link ${linkStatus}`} role="status">${LINK_WORDS[linkStatus]}</span>
      ${game ? html`<button type="button" onClick=${newGameForm}>New game…</button>` : null}
    </header>
    <main>
      ${notice ? html`<p class="notice" role="alert">${notice}</p>` : null}
      ${
        welcome === null
          ? html`<p class="hint">Connecting to the server…</p>`
          : game === null
            ? html`<${Setup}
                welcome=${welcome}
                initial=${settings ?? defaultSettings(welcome)}
                busy=${busy}
                onStart=${(s: TableSettings) => void deal(s)}
              />`
            : html`<div class="play">
                <div class="main-column">
                  <p class="status" role="status" aria-live="polite">${statusText(game)}</p>
                  ${
                    state
                      ? html`<${TableView}
                          game=${game}
                          state=${state}
                          selected=${selected}
                          advice=${shownAdvice?.advice ?? null}
                          busy=${busy}
                          commands=${{ pick, discard: () => lay(null), deck: () => draw({ kind: 'deck' }), take: (card: string) => draw({ kind: 'take', card }), play: (a: LegalAction) => void act(a.action) }}
                        />`
                      : html`<p class="hint">Dealing…</p>`
                  }
                  ${game.over && !game.unseenResult ? html`<${GameOver} game=${game} over=${game.over} onPlayAgain=${playAgain} onNewGame=${newGameForm} />` : null}
                </div>
                <aside class="side-column">
                  <${Advisor}
                    on=${advisorOn}
                    agents=${welcome.agents}
                    agent=${advisorAgent}
                    advice=${shownAdvice?.advice ?? null}
                    counter=${shownAdvice?.counter ?? null}
                    myMove=${myMove}
                    onToggle=${() => setAdvisorOn((on) => !on)}
                    onAgent=${setAdvisorAgent}
                  />
                  <${ScoreTable} game=${game} />
                </aside>
                ${
                  game.unseenResult
                    ? html`<${RoundResultDialog}
                        game=${game}
                        result=${game.unseenResult}
                        onClose=${() => setGame((g) => g && dismissResult(g))}
                        onPlayAgain=${playAgain}
                        onNewGame=${newGameForm}
                      />`
                    : null
                }
              </div>`
      }
    </main>
    <footer class="keys">
      Keys: <kbd>1</kbd>–<kbd>7</kbd> pick cards · <kbd>Enter</kbd> lay them · <kbd>D</kbd> deck · <kbd>T</kbd> take · <kbd>Y</kbd> Yaniv ·
      <kbd>A</kbd> advisor · <kbd>Esc</kbd> clear
    </footer>`;
}

function tableInfo(reply: Msg<'table_created'> | Msg<'resumed'>): TableInfo {
  const { table, token, preset, rules, settledRules, players, seats, thinkMs, moveDeadlineMs } = reply;
  return { table, token, preset, rules, settledRules, players, seats, thinkMs, moveDeadlineMs };
}

/** The server's refusal in words: for an illegal move, its reason without the action id. */
export function explain(error: Msg<'error'>): string {
  if (error.code !== 'illegal_action') return error.message;
  return `Not allowed: ${error.message.replace(/^action \d+ \((.*?)\) is illegal: /, '')}`;
}

/** Whose turn it is, in words (read out by screen readers as it changes). */
export function statusText(game: Game): string {
  const me = mySeat(game);
  if (game.over) return game.over.winner === me ? 'Game over: you win!' : `Game over: ${seatName(game, game.over.winner)} wins.`;
  const state = game.state;
  if (state === null) return 'Dealing…';
  if (state.toMove !== me) return `${seatName(game, state.view.current)} to play.`;
  if (state.view.phase === 'draw') return 'Your draw: the deck (D) or a card of the previous group.';
  if (state.view.phase === 'afterDraw') return 'After your draw: quick discard, slapdown or pass.';
  return state.legal.some((l) => l.kind === 'yaniv') ? 'Your turn: lay cards, or call Yaniv!' : 'Your turn: pick cards and lay them.';
}
