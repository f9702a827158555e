/**
 * Playing with friends on the page: the lobby of a table with friends' seats — for its creator
 * the invite (a link to send and its QR code to scan), who has joined, and Start (bots in the
 * seats nobody took); for a friend, the table they joined until the host starts — and the form a
 * friend's link opens (`?join=CODE`): their name, then Join.
 */
import { useState } from 'preact/hooks';
import { type Game, isGuest, mySeat, seatName } from './game.js';
import { html } from './html.js';
import { inviteLink } from './invite.js';
import { OneFieldForm } from './oneFieldForm.js';
import { QrCode } from './qrCode.js';

interface LobbyProps {
  readonly game: Game;
  readonly busy: boolean;
  readonly onStart: () => void;
}

export function Lobby({ game, busy, onStart }: LobbyProps) {
  const { invite } = game.info;
  const waiting = game.info.seats.filter((s) => s.player === 'guest' && s.name === undefined).length;
  return html`<section class="lobby" aria-labelledby="lobby-title">
    <h2 id="lobby-title">${isGuest(game) ? 'You joined the table' : 'Invite friends'}</h2>
    ${invite === null ? null : html`<${Invite} code=${invite.code} expiresAt=${invite.expiresAt} />`}
    <h3>At the table</h3>
    <ul class="lobby-seats">
      ${game.info.seats.map((seat) => html`<li key=${seat.seat} data-seat=${seat.seat}>${seatLine(game, seat.seat)}</li>`)}
    </ul>
    ${
      isGuest(game)
        ? html`<p class="hint waiting">Waiting for the host to start the game…</p>`
        : html`<button type="button" class="primary" disabled=${busy} onClick=${onStart}>
            ${waiting === 0 ? 'Start the game' : `Start now: ${waiting === 1 ? 'a bot plays the empty seat' : 'bots play the empty seats'}`}
          </button>`
    }
  </section>`;
}

/** One seat in the lobby: who sits there, and for a friend's seat whether they have joined. */
export function seatLine(game: Game, seat: number): string {
  const info = game.info.seats[seat];
  const name = seatName(game, seat);
  if (seat === mySeat(game)) return `${name} (seat ${seat + 1})`;
  if (info?.player !== 'guest') return name;
  if (info.name === undefined) return `Seat ${seat + 1}: waiting for a friend…`;
  return `${name} (seat ${seat + 1}): ${info.present === true ? 'joined' : 'away'}`;
}

function Invite({ code, expiresAt }: { readonly code: string; readonly expiresAt: number }) {
  const link = inviteLink(window.location, code);
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard?.writeText(link).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  const until = new Date(expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return html`<div class="invite">
    <p>Send this link to your friends, or let them scan the code: each plays on their own phone or computer.</p>
    <div class="row invite-row">
      <input
        class="invite-link"
        readonly
        value=${link}
        aria-label="Invite link"
        onFocus=${(e: Event) => (e.target as HTMLInputElement).select()}
      />
      <button type="button" onClick=${copy}>${copied ? 'Copied' : 'Copy link'}</button>
    </div>
    <${QrCode} text=${link} label="QR code of the invite link" />
    <p class="hint">The link takes friends until ${until}.</p>
  </div>`;
}

interface JoinProps {
  readonly busy: boolean;
  readonly onJoin: (name: string) => void;
}

/** What a friend's link opens: their name (what the others see), then Join. */
export function JoinForm({ busy, onJoin }: JoinProps) {
  return html`<${OneFieldForm}
    kind="join"
    title="Join a friend’s game"
    label="Your name"
    field=${{ name: 'name', maxlength: '40', autocomplete: 'nickname', placeholder: 'what the others see' }}
    submit="Join"
    ready=${() => !busy}
    onSubmit=${onJoin}
    after=${html`<p class="hint">Or <a href="/">deal a game of your own</a>.</p>`}
  />`;
}
