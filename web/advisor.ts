/**
 * The advisor: on the player's turn, a bot's recommended move (highlighted on the table too),
 * the moves it ranked best with their probability or expected cost, its value estimate, and the
 * chance of being Assaf'ed whenever Yaniv may be called — cards drawn as the hand draws them,
 * numbers in words (adviceWords.ts).
 */
import { html } from './html.js';
import { SCORE_CAPTIONS, riskInWords, scoreInWords, valueInWords, winInWords } from './adviceWords.js';
import { MoveView } from './moveView.js';
import type { Msg } from './protocol.js';

const TOP_MOVES = 5;

interface AdvisorProps {
  readonly on: boolean;
  readonly agents: Msg<'welcome'>['agents'];
  readonly agent: string;
  readonly advice: Msg<'advice'> | null;
  /** The counter of the state the advice is for. */
  readonly counter: number | null;
  readonly myMove: boolean;
  readonly onToggle: () => void;
  readonly onAgent: (agent: string) => void;
}

export function Advisor({ on, agents, agent, advice, counter, myMove, onToggle, onAgent }: AdvisorProps) {
  return html`<section class="advisor" aria-label="Advisor">
    <div class="row">
      <label><input type="checkbox" name="advisor" checked=${on} onChange=${onToggle} aria-keyshortcuts="A" /> Advisor <kbd>A</kbd></label>
      <select
        name="advisor-agent"
        aria-label="Advisor bot"
        value=${agent}
        onChange=${(e: Event) => onAgent((e.target as HTMLSelectElement).value)}
      >
        ${agents.map((a) => html`<option key=${a.name} value=${a.name}>${a.name}${a.explains ? '' : ' (pick only)'}</option>`)}
      </select>
    </div>
    ${on ? html`<${AdviceBody} advice=${advice} counter=${counter} myMove=${myMove} />` : null}
  </section>`;
}

function AdviceBody({
  advice,
  counter,
  myMove,
}: {
  readonly advice: Msg<'advice'> | null;
  readonly counter: number | null;
  readonly myMove: boolean;
}) {
  if (!myMove) return html`<p class="hint">The advisor speaks on your turn.</p>`;
  if (advice === null) return html`<p class="hint">Thinking…</p>`;
  const value = valueInWords(advice.value, advice.scores);
  const win = winInWords(advice.win);
  return html`<div class="advice" data-counter=${counter}>
    ${win === null ? null : html`<p class="win-chance"><b>${win.text}</b> <span class="hint">(${win.note})</span></p>`}
    <p>
      ${`${advice.agent} suggests `}<b class="advice-pick" data-action=${advice.pick.action}
        ><${MoveView} move=${advice.pick} tense="suggest"
      /></b>
    </p>
    ${
      advice.scores === 'none'
        ? null
        : html`<p class="hint" id="ranked-caption">${SCORE_CAPTIONS[advice.scores]}:</p>
            <ol class="ranked" aria-labelledby="ranked-caption">
              ${advice.actions.slice(0, TOP_MOVES).map(
                (a) =>
                  html`<li key=${a.action} data-action=${a.action} class=${a.action === advice.pick.action ? 'pick' : ''}>
                    <${MoveView} move=${a} tense="suggest" />
                    <span class="score">${scoreInWords(a.score, advice.scores)}</span>
                  </li>`,
              )}
            </ol>`
    }
    ${value === null ? null : html`<p class="hint value-words">${value}</p>`}
    ${
      advice.assaf === null
        ? null
        : html`<p class="assaf">
            Assaf risk if you call Yaniv now: <b>${riskInWords(advice.assaf.risk)}</b>
            <span class="hint"
              >(the chance that another player holds as few points or
              fewer${advice.assaf.exact ? '' : ', estimated from 4,096 deals'})</span
            >
          </p>`
    }
  </div>`;
}
