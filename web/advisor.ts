/**
 * The advisor: on the player's turn, the chance to win the game (or why there is none), the
 * suggested move (highlighted on the table too) and the moves worth weighing in a player's terms
 * — each one's chance to win and points this round with their intervals, from the same moves
 * played out that chose the suggestion (moves it cannot tell apart tagged "about the same"),
 * short reasons — and the chance of being Assaf'ed whenever Yaniv may be called; the bot's own
 * choice when the moves played out overrule it, and its own order of the moves folded away as a
 * detail. Cards drawn as the hand draws them, numbers in words (adviceWords.ts).
 */
import { botName } from './blurbs.js';
import { html } from './html.js';
import { Card } from './cardView.js';
import {
  type AdvisedMove,
  SCORE_CAPTIONS,
  STANDING_TAGS,
  outlookInWords,
  riskInWords,
  scoreInWords,
  suggestionInWords,
  winInWords,
  winReasonInWords,
} from './adviceWords.js';
import { MoveView } from './moveView.js';
import type { Msg } from '../client/protocol.js';

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

/**
 * The suggestion in one line beside the hand (on a phone the advisor sits far below it at a full
 * table); "Why?" brings the advisor, with the rest, into view.
 */
export function AdviceLine({ advice }: { readonly advice: Msg<'advice'> }) {
  const why = () => document.getElementById('advisor')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  const own = suggestionInWords(advice).overruled === null;
  return html`<p class="advice-line" role="note">
    ${`${own ? botName(advice.agent) : 'The advisor'} suggests: `}<b><${MoveView} move=${advice.pick} tense="suggest" /></b>${' '}
    <button type="button" class="link-button" onClick=${why}>Why?</button>
  </p>`;
}

export function Advisor({ on, agents, agent, advice, counter, myMove, onToggle, onAgent }: AdvisorProps) {
  return html`<section class="advisor" id="advisor" aria-label="Advisor">
    <div class="row">
      <label><input type="checkbox" name="advisor" checked=${on} onChange=${onToggle} aria-keyshortcuts="A" /> Advisor <kbd>A</kbd></label>
      <select
        name="advisor-agent"
        aria-label="Advisor bot"
        value=${agent}
        onChange=${(e: Event) => onAgent((e.target as HTMLSelectElement).value)}
      >
        ${agents.map((a) => html`<option key=${a.name} value=${a.name}>${botName(a.name)}${a.explains ? '' : ' (no reasons)'}</option>`)}
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
  const win = winInWords(advice.win, advice.worlds);
  const noWin = winReasonInWords(advice.winReason);
  const suggestion = suggestionInWords({ ...advice, agent: botName(advice.agent) });
  return html`<div class="advice" data-counter=${counter}>
    ${win === null ? null : html`<p class="win-chance"><b>${win.text}</b> <span class="hint">(${win.note})</span></p>`}
    ${noWin === null ? null : html`<p class="win-reason hint">${noWin}</p>`}
    <p>
      ${suggestion.lead}<b class="advice-pick" data-action=${advice.pick.action}><${MoveView} move=${advice.pick} tense="suggest" /></b>
    </p>
    ${
      suggestion.overruled === null
        ? null
        : html`<p class="hint agent-pick" data-action=${advice.agentPick.action}>
            ${suggestion.overruled.before}<${MoveView} move=${advice.agentPick} tense="suggest" />${suggestion.overruled.after}
          </p>`
    }
    <ol class="outlook" aria-label="Moves worth weighing, played out from what you can see">
      ${(advice.moves ?? []).map((m) => html`<${OutlookRow} key=${m.action} move=${m} />`)}
    </ol>
    ${
      advice.scores === 'none'
        ? null
        : html`<details class="ranking">
            <summary id="ranked-caption">${SCORE_CAPTIONS[advice.scores]}</summary>
            <ol class="ranked" aria-labelledby="ranked-caption">
              ${advice.actions.slice(0, TOP_MOVES).map(
                (a) =>
                  html`<li key=${a.action} data-action=${a.action} class=${a.action === advice.agentPick.action ? 'pick' : ''}>
                    <${MoveView} move=${a} tense="suggest" />
                    <span class="score">${scoreInWords(a.score, advice.scores)}</span>
                  </li>`,
              )}
            </ol>
          </details>`
    }
    ${
      advice.assaf === null
        ? null
        : html`<p class="assaf">
            Assaf risk if you call Yaniv now: <b>${riskInWords(advice.assaf.risk)}</b>${' '}
            <span class="hint"
              >(the chance that another player holds as few points or
              fewer${advice.assaf.exact ? '' : ', estimated from 4,096 deals'})</span
            >
          </p>`
    }
  </div>`;
}

/** One move played out: its chance to win and points this round, tagged by how the moves played out judge it, its reasons. */
function OutlookRow({ move }: { readonly move: AdvisedMove }) {
  const words = outlookInWords(move);
  const tag = STANDING_TAGS[move.standing];
  return html`<li data-action=${move.action} data-standing=${move.standing} class=${move.standing === 'suggested' ? 'pick' : move.standing}>
    <${MoveView} move=${move} tense="suggest" />
    ${tag === null ? null : html` <span class="tag">${tag}</span>`}
    <span class="figures"
      >${words.win === null ? null : html`<span class="win">${words.win}</span>; `}<span class="points">${words.points}</span></span
    >
    ${
      move.reasons.length === 0
        ? null
        : html`<ul class="reasons">
            ${move.reasons.map(
              (r) =>
                html`<li key=${r.kind} data-kind=${r.kind}>
                  ${r.text}${(r.cards ?? []).map((name) => html` <${Card} key=${name} name=${name} small=${true} />`)}
                </li>`,
            )}
          </ul>`
    }
  </li>`;
}
