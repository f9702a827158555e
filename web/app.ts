/**
 * The page: the new-game form until a table is dealt, then the table, the advisor and the
 * scores. Layout only: the session with the server, the moves and the advisor are session.ts's,
 * and what a key or a click means is intents.ts's.
 */
import { Advisor } from './advisor.js';
import { type Game, isGuest, mySeat, seatName } from './game.js';
import { html } from './html.js';
import type { LinkStatus } from './link.js';
import { JoinForm, Lobby } from './lobby.js';
import { MoveLog } from './moveLog.js';
import { WhatHappened } from './happened.js';
import { GameOver, RoundResultDialog, ScoreTable } from './results.js';
import { RulesInPlay } from './rulesInPlay.js';
import { type Session, useSession } from './session.js';
import { Setup, defaultSettings } from './setup.js';
import { StatsPanel } from './statsPanel.js';
import { TableView } from './tableView.js';
import { TokenForm } from './tokenForm.js';
import { WINS, withVerb } from './words.js';

const LINK_WORDS: Record<LinkStatus, string> = {
  connecting: 'connecting…',
  open: 'connected',
  reconnecting: 'reconnecting…',
  locked: 'password needed',
};

export function App() {
  const session = useSession();
  const { linkStatus, welcome, game, notice } = session;
  const pageNotice = notice !== null && (notice.place === 'page' || game?.state == null) ? notice : null;
  return html`<header class="top">
      <h1>Yaniv</h1>
      <span class=${`link ${linkStatus}`} role="status">${LINK_WORDS[linkStatus]}</span>
      <a class="button how-to" href="/rules.html" target="_blank" rel="noopener">How to play</a>
      <button
        type="button"
        class="sound"
        aria-label="Sound"
        title=${session.sound.on ? 'Sound on' : 'Sound off'}
        aria-pressed=${session.sound.on ? 'true' : 'false'}
        onClick=${session.sound.toggle}
      >
        ${session.sound.on ? '♪ on' : '♪ off'}
      </button>
      ${game ? html`<button type="button" onClick=${session.newGameForm}>New game…</button>` : null}
    </header>
    <main>
      ${
        pageNotice
          ? html`<div class="notice page-notice" role="alert">
              <p>${pageNotice.text}</p>
              ${
                pageNotice.newGame && welcome !== null
                  ? html`<button type="button" class="primary" onClick=${() => session.deal(session.settings ?? defaultSettings(welcome))}>
                      Deal a new game
                    </button>`
                  : null
              }
            </div>`
          : null
      }
      ${
        linkStatus === 'locked'
          ? html`<${TokenForm} given=${session.tokenGiven} onToken=${session.unlock} />`
          : welcome === null
            ? html`<p class="hint">Connecting to the server…</p>`
            : game === null
              ? session.joinCode !== null
                ? html`<${JoinForm} busy=${session.busy} onJoin=${session.join} />`
                : html`<${Setup}
                      welcome=${welcome}
                      initial=${session.settings ?? defaultSettings(welcome)}
                      busy=${session.busy}
                      onStart=${session.deal}
                    />
                    <${StatsPanel} stats=${session.stats} onReset=${session.resetStats} />`
              : game.info.lobby
                ? html`<${Lobby} game=${game} busy=${session.busy} onStart=${session.start} />`
                : html`<${Play} session=${session} welcome=${welcome} game=${game} />`
      }
    </main>
    <footer class="keys">
      Keys: <kbd>1</kbd>–<kbd>7</kbd> pick cards · <kbd>Enter</kbd> lay them · <kbd>D</kbd> deck · <kbd>T</kbd> take (again: the next
      card,${' '} <kbd>Enter</kbd> takes it) · <kbd>Y</kbd> Yaniv · <kbd>Q</kbd> quick discard · <kbd>S</kbd> slapdown · <kbd>P</kbd> pass ·
      <kbd>A</kbd> advisor · <kbd>Esc</kbd> clear
    </footer>`;
}

interface PlayProps {
  readonly session: Session;
  readonly welcome: NonNullable<Session['welcome']>;
  readonly game: Game;
}

function Play({ session, welcome, game }: PlayProps) {
  const state = game.state;
  const { advisor } = session;
  const connected = session.linkStatus === 'open';
  const myMove = state !== null && state.toMove === state.seat && state.legal.length > 0 && game.over === null;
  const playAgain = isGuest(game) ? null : session.playAgain;
  return html`<div class="play">
    <div class="main-column">
      <p class=${`status${connected || game.over ? '' : ' lost'}${myMove ? ' your-turn' : ''}`} role="status" aria-live="polite">
        ${statusText(game, connected)}
      </p>
      <${WhatHappened} game=${game} />
      <${RulesInPlay} info=${game.info} welcome=${welcome} />
      ${
        state
          ? html`<${TableView}
              game=${game}
              state=${state}
              selected=${session.selected}
              advice=${advisor.advice?.advice ?? null}
              busy=${session.busy || !connected}
              notice=${session.notice?.place === 'hand' ? session.notice.text : null}
              takeChoice=${session.takeChoice}
              dispatch=${session.dispatch}
            />`
          : html`<p class="hint">Dealing…</p>`
      }
      <${MoveLog} game=${game} />
      ${
        game.over && !game.unseenResult
          ? html`<${GameOver} game=${game} over=${game.over} onPlayAgain=${playAgain} onNewGame=${session.newGameForm} />`
          : null
      }
    </div>
    <aside class="side-column">
      <${Advisor}
        on=${advisor.on}
        agents=${welcome.agents}
        agent=${advisor.agent}
        advice=${advisor.advice?.advice ?? null}
        counter=${advisor.advice?.counter ?? null}
        myMove=${myMove}
        onToggle=${() => session.dispatch({ type: 'advise' })}
        onAgent=${session.chooseAdvisor}
      />
      <${ScoreTable} game=${game} />
      <${StatsPanel} stats=${session.stats} onReset=${session.resetStats} />
    </aside>
    ${
      game.unseenResult
        ? html`<${RoundResultDialog}
            game=${game}
            result=${game.unseenResult}
            onClose=${session.dismiss}
            onPlayAgain=${playAgain}
            onNewGame=${session.newGameForm}
          />`
        : null
    }
  </div>`;
}

/** Said at once when the connection drops, in place of whose turn it is: no move can be sent until it is back. */
export const CONNECTION_LOST = 'The connection to the server is lost: reconnecting… Your moves wait until it is back.';

/** Whose turn it is, in words (read out by screen readers as it changes), or that the connection is lost. */
export function statusText(game: Game, connected = true): string {
  const me = mySeat(game);
  if (game.over)
    return game.over.winner === me ? 'Game over: you win!' : `Game over: ${withVerb([seatName(game, game.over.winner)], WINS)}.`;
  if (!connected) return CONNECTION_LOST;
  const state = game.state;
  if (state === null) return 'Dealing…';
  if (state.toMove !== me) return `${seatName(game, state.view.current)} to play.`;
  if (state.view.phase === 'draw') return 'Your draw: the deck or a card of the previous group.';
  if (state.view.phase === 'afterDraw') return 'After your draw: quick discard, slapdown or pass.';
  return state.legal.some((l) => l.kind === 'yaniv') ? 'Your turn: lay cards, or call Yaniv!' : 'Your turn: pick cards and lay them.';
}
