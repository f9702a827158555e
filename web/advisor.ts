/**
 * The advisor: on the player's turn, a bot's recommended move (highlighted on the table too),
 * the moves it ranked best with their probability or score, its value estimate, and the chance
 * of being Assaf'ed whenever Yaniv may be called.
 */
import { html } from './html.js';
import type { Msg, RankedAction } from './protocol.js';

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
  return html`<div class="advice" data-counter=${counter}>
    <p>${advice.agent} suggests <b class="advice-pick" data-action=${advice.pick.action}>${advice.pick.text}</b></p>
    ${
      advice.scores === 'none'
        ? null
        : html`<ol class="ranked" aria-label="Best moves">
            ${advice.actions
              .slice(0, TOP_MOVES)
              .map(
                (a) =>
                  html`<li key=${a.action} class=${a.action === advice.pick.action ? 'pick' : ''}>
                    <span>${a.text}</span> <span class="score">${formatScore(a, advice.scores)}</span>
                  </li>`,
              )}
          </ol>`
    }
    ${advice.value === null ? null : html`<p class="hint">Value estimate ${advice.value.toFixed(2)}${advice.scores === 'score' ? ' (points, higher is better)' : ''}</p>`}
    ${
      advice.assaf === null
        ? null
        : html`<p class="assaf">
            Assaf risk if you call Yaniv now: <b>${Math.round(advice.assaf.risk * 100)}%</b>
            ${advice.assaf.exact ? null : html`<span class="hint">(estimated from 4,096 deals)</span>`}
          </p>`
    }
  </div>`;
}

function formatScore(action: RankedAction, scores: Msg<'advice'>['scores']): string {
  return scores === 'probability' ? `${(action.score * 100).toFixed(1)}%` : action.score.toFixed(2);
}
