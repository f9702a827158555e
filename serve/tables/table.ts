/**
 * A server table: a `TableGame` with seats (the creator connection's, guests' who joined with the invite
 * (serve/tables/tableGuests.ts), and bots that decide through the inference pool), a bot think delay, a
 * per-step deadline for client seats, and the messages each client seat receives (its own view only:
 * `playerView` is the one gate). It knows nothing of sockets: it hands messages to whichever owner is
 * attached (a connection), so a client that reconnects takes the table over with its token.
 *
 * Bound to a shared table store (`bind`), its journal (serve/tables/tableJournal.ts) writes every step,
 * and no message showing a step goes out before the step is written. Without a store, messages go out at once.
 */
import type { Logger } from 'pino';
import type { ResolvedAgent, TableKind } from '../../agents/resolve.js';
import { SeatAgents } from './seatAgents.js';
import { IllegalActionError, type PlayerView } from '../../env/index.js';
import { mixSeed } from '../../env/rules/random.js';
import type { DecideResult } from '../inference/decide.js';
import { ProtocolError } from '../protocol/errors.js';
import type { Msg, SeatInfo, ServerMessage } from '../protocol/protocol.js';
import { type StepReport, TableGame } from './tableGame.js';
import type { UnwrittenLog } from './unwrittenLog.js';
import { StaleStateError, movingError } from './tableErrors.js';
import { seatsAsTold, takeGuestSeat, tokenRole } from './tableGuests.js';
import { GuestPresence } from './guestPresence.js';
import { gameOverMessage } from './gameMessages.js';
import { TableJournal } from './tableJournal.js';
import type { TableSettings } from './tableRecord.js';
import type { Claim, TableSnapshot, TableStore } from './tableStore.js';
import { viewToJson } from '../protocol/viewJson.js';

/** What a client plays: an action id, or a discard by its cards. */
export type ClientMove = { readonly action: number } | { readonly cards: readonly string[] };

/** The kind of table a table's settings make (its rules and size): what an agent resolves its model for (agents/resolve.ts). */
export function tableKindOf(settings: Pick<TableSettings, 'preset' | 'rules' | 'seats'>): TableKind {
  return { preset: settings.preset, rules: settings.rules, players: settings.seats.length };
}

/** Where a table's messages go: the connection that plays it now. */
export interface TableOwner {
  deliver(message: ServerMessage): void;
  /** The server closed the table or moved it to another connection. */
  tableClosed(table: ServerTable, reason: Msg<'table_closed'>['reason']): void;
  /** The creator played again with friends: this guest leaves `old` for its seat at `next` (told `told`). */
  follow(old: ServerTable, next: ServerTable, told: Msg<'next_table'>): void;
}

export interface TableServices {
  /** What a bot agent plays at this table (agents/resolve.ts), with the published version it is pinned to (null: none). */
  resolve(agent: string, table: TableKind, modelVersion: number | null): Promise<ResolvedAgent>;
  decide(agent: ResolvedAgent, view: PlayerView, seed: number): Promise<DecideResult>;
  readonly log: Logger;
  now(): number;
  /** A table no client touches for this long expires (here and in the store). */
  readonly idleMs: number;
  /** A guest who left keeps their turn this long (a reload, a dropped connection) before the stand-in bot plays it. */
  readonly standInMs: number;
  /** The store refused a write: another process took the table over. */
  lost(table: ServerTable): void;
  /** Where writes the store did not take are summarised (one line per window for every table). */
  readonly unwritten?: UnwrittenLog;
}

export class ServerTable {
  readonly game: TableGame;
  /** The creator's connection (it plays the client seats), or null while it is away. */
  owner: TableOwner | null = null;
  /** The guest seats whose person is connected, and their connections. */
  readonly guests = new GuestPresence<TableOwner>();
  /** Last time a client did something here (create, act, advise, resume). */
  lastActivity: number;
  /** The client address that created or last resumed it: the per-address table limit counts it there (serve/tables.ts). */
  address: string | null = null;
  closed = false;
  private botTimer: NodeJS.Timeout | null = null;
  private readonly seatAgents = new SeatAgents((agent) =>
    this.services.resolve(agent, tableKindOf(this.settings), this.settings.models?.[agent] ?? null),
  );
  private botImmediate: NodeJS.Immediate | null = null;
  private deadlineTimer: NodeJS.Timeout | null = null;
  /** When the client seat to move runs out of time (ms since 1970), or null. */
  private deadline: number | null = null;
  private deciding = false;
  /** Draining: the table plays no further step here. */
  private halted = false;
  /** Restored from a store and not yet attached: the deadline to go on with. */
  private resumeAt: number | null | undefined = undefined;
  private readonly journal: TableJournal;

  constructor(
    /** Replaced (not changed) when a guest joins or the table starts; the journal then writes it again. */
    public settings: TableSettings,
    private readonly services: TableServices,
  ) {
    this.game = new TableGame({
      preset: settings.preset,
      rules: settings.rules,
      players: settings.seats.length,
      seed: settings.seed,
      maxTurns: settings.maxTurns,
    });
    this.lastActivity = services.now();
    this.journal = new TableJournal(this, {
      log: services.log,
      ...(services.unwritten ? { unwritten: services.unwritten } : {}),
      lost: () => this.services.lost(this),
    });
  }

  /** A table rebuilt from a store: its steps replayed (they are deterministic), not yet playing. */
  static restore(snapshot: TableSnapshot, services: TableServices): ServerTable {
    const table = new ServerTable(snapshot.settings, services);
    for (const id of snapshot.moves) table.game.step(id);
    table.resumeAt = snapshot.deadlineAt;
    return table;
  }

  get id(): string {
    return this.settings.id;
  }

  /** This process's claim on the table in a shared store, or null. */
  get claim(): Claim | null {
    return this.journal.claim;
  }

  /** Whether the store holds every step played (false while it is unreachable, until written whole). */
  get written(): boolean {
    return this.journal.written;
  }

  /** When the client seat to move runs out of time (ms since 1970), or null. */
  get deadlineAt(): number | null {
    return this.deadline;
  }

  /** When the table expires unless a client touches it (ms since 1970). */
  get expireAt(): number {
    return this.lastActivity + this.services.idleMs;
  }

  snapshot(): TableSnapshot {
    return { settings: this.settings, moves: [...this.game.moves], deadlineAt: this.deadline, expireAt: this.expireAt };
  }

  /**
   * Writes the table to a shared store from now on (`stored`: the store already holds it as it is,
   * e.g. just claimed); messages then go out only once what they show is written.
   */
  bind(store: TableStore, claim: Claim, stored: boolean): void {
    this.journal.bind(store, claim, stored);
  }

  /** Runs `run` once everything played so far is written (at once without a shared store); `dropped` if the table is lost or closed first. */
  afterWrites(run: () => void, dropped?: () => void): void {
    this.journal.afterWrites(run, dropped);
  }

  /** Writes again (the store is back, or lost the table). */
  rewrite(): void {
    this.journal.rewrite();
  }

  /** Stops playing (drain): no further bot move or deadline; resolves once everything played is written and told. */
  async halt(): Promise<void> {
    this.halted = true;
    this.clearTimers();
    await this.journal.settled();
  }

  clientSeats(): number[] {
    return this.settings.seats.filter((s) => s.player === 'client').map((s) => s.seat);
  }

  /** The connection that plays a seat now: the creator's for client seats, its person's for a guest seat; null for bots and away guests. */
  ownerOf(seat: number): TableOwner | null {
    const info = this.settings.seats[seat];
    if (info.player === 'client') return this.owner;
    return info.player === 'guest' ? (this.guests.get(seat) ?? null) : null;
  }

  /** The seats a connection plays here. */
  seatsOf(owner: TableOwner): number[] {
    if (owner === this.owner) return this.clientSeats();
    return [...this.guests].filter(([, by]) => by === owner).map(([seat]) => seat);
  }

  /** Every connection at the table (the creator's and each present guest's). */
  owners(): TableOwner[] {
    return [...new Set([...(this.owner ? [this.owner] : []), ...this.guests.values()])];
  }

  /** The seats a person plays now (told what happens). */
  private toldSeats(): number[] {
    return this.settings.seats.filter((s) => this.ownerOf(s.seat) !== null).map((s) => s.seat);
  }

  /**
   * Whether someone watches the game step by step: a connection plays a seat still in the game.
   * Otherwise the bots play it out at full speed, unstreamed.
   */
  private get watched(): boolean {
    return this.toldSeats().some((seat) => this.game.active(seat));
  }

  /** Sends each client seat its state and lets the first player move (a table with guest seats waits in its lobby for `begin`). */
  start(): void {
    this.schedule();
    this.sendStates();
    if (this.hasGuestSeats) this.sendSeats();
  }

  /** Attaches a (new) owner and sends it the current state of each client seat (a restored table then goes on). */
  attach(owner: TableOwner): void {
    this.owner = owner;
    this.resumePlay(this.clientSeats());
  }

  /** A guest seat's person (joined or back with its token) plays it from now on; returns who played it before. */
  attachGuest(seat: number, owner: TableOwner): TableOwner | null {
    const previous = this.guests.get(seat) ?? null;
    this.guests.set(seat, owner);
    if (this.game.toMove === seat && !this.deciding) {
      this.clearTimers();
      this.schedule();
    }
    this.resumePlay([seat]);
    this.sendSeats();
    return previous;
  }

  /**
   * Takes the first guest seat nobody joined for a person with the invite `code` (checked by the
   * caller); returns the seat and its own token. Throws unknown_table when the invite expired or
   * every guest seat is taken.
   */
  join(owner: TableOwner, name: string | undefined, taken: (seat: number, token: string) => void): { seat: number; token: string } {
    if (this.owners().includes(owner)) throw new ProtocolError('bad_message', 'this connection already plays at this table', 'code');
    const { settings, seat, token } = takeGuestSeat(this.settings, name, this.services.now());
    this.resettle(settings);
    taken(seat, token);
    this.attachGuest(seat, owner);
    return { seat, token };
  }

  /** Who a token lets in: the creator, a joined guest seat, or nobody. */
  roleOf(token: string): 'creator' | number | null {
    return tokenRole(this.settings, token);
  }

  /** A connection left or closed: its seats wait for a resume (client seats) or go to their stand-in bot (guest seats). */
  detach(owner: TableOwner): void {
    if (this.owner === owner) this.owner = null;
    const seats = this.seatsOf(owner).filter((seat) => this.guests.get(seat) === owner);
    if (seats.length === 0) return;
    for (const seat of seats) this.guests.leave(seat, this.services.now());
    this.sendSeats();
    const toMove = this.game.toMove;
    if (toMove !== null && seats.includes(toMove) && !this.deciding) {
      this.clearTimers();
      this.schedule();
    }
  }

  /** The creator starts a table waiting in its lobby: guest seats nobody joined are played by their stand-in bot. */
  begin(): void {
    if (!this.settings.lobby) throw new ProtocolError('bad_message', `table ${this.id} has already started`, 'table');
    this.resettle({ ...this.settings, lobby: false });
    this.sendSeats();
    this.schedule();
    this.sendStates();
  }

  /** New settings (a join, the start): the journal writes the table whole again. */
  resettle(settings: TableSettings): void {
    this.settings = settings;
    this.journal.resettle();
  }

  get hasGuestSeats(): boolean {
    return this.settings.seats.some((s) => s.player === 'guest');
  }

  /** The seats as told to players: a guest seat with its person's name and whether they are here. */
  seatsInfo(): SeatInfo[] {
    return seatsAsTold(this.settings, (seat) => this.guests.has(seat));
  }

  private sendSeats(): void {
    this.deliver({ type: 'seats', table: this.id, seats: this.seatsInfo(), lobby: this.settings.lobby === true });
  }

  /** A connection took seats over: the table goes on (a restored one from its deadline) and it is sent their state (none in the lobby). */
  private resumePlay(seats: readonly number[]): void {
    this.touched();
    if (this.resumeAt !== undefined) {
      const at = this.resumeAt;
      this.resumeAt = undefined;
      this.schedule(at);
    }
    // Nothing is dealt in the lobby: the seats' states come with begin (sendStates), never twice.
    if (!this.settings.lobby) for (const seat of seats) this.deliver(this.stateFor(seat));
    if (this.game.over) this.deliver(gameOverMessage(this.id, this.settings.seed, this.game));
  }

  private touched(): void {
    this.lastActivity = this.services.now();
    this.journal.touch();
  }

  /** The seat of `by` a request is for: the one given, or the only one, or the one to move. */
  clientSeat(seat: number | undefined, by: TableOwner): number {
    const mine = this.seatsOf(by);
    if (seat !== undefined) {
      const info = this.settings.seats[seat];
      if (!info)
        throw new ProtocolError('not_your_turn', `seat ${seat} does not exist at this table of ${this.settings.seats.length}`, 'seat');
      if (!mine.includes(seat))
        throw new ProtocolError(
          'not_your_turn',
          info.player === 'bot'
            ? `seat ${seat} is played by the bot ${info.agent ?? ''}, not by this connection`
            : `seat ${seat} is not this connection's`,
          'seat',
        );
      return seat;
    }
    if (mine.length === 1) return mine[0];
    const toMove = this.game.toMove;
    if (toMove !== null && mine.includes(toMove)) return toMove;
    throw new ProtocolError(
      'not_your_turn',
      `name the seat: this connection plays seats ${mine.join(', ')} and none of them is to move`,
      'seat',
    );
  }

  /**
   * Applies a client seat's action (an id, or a discard by its cards); `reply` runs after it is
   * applied and before the events go out.
   */
  act(
    by: TableOwner,
    seatGiven: number | undefined,
    move: ClientMove,
    counter: number,
    reply: (counter: number) => void,
    dropped?: () => void,
  ): void {
    this.lastActivity = this.services.now();
    const seat = this.clientSeat(seatGiven, by);
    const field = 'cards' in move ? 'cards' : 'action';
    if (this.game.over) throw new ProtocolError('illegal_action', 'the game is over', field, { reason: 'the game is over' });
    if (this.settings.lobby)
      throw new ProtocolError('not_your_turn', 'the table waits in its lobby: its creator has not started it', field);
    if (this.halted) throw movingError(this.id);
    if (counter !== this.game.counter) throw new StaleStateError(counter, this.game.counter);
    const toMove = this.game.toMove;
    if (toMove !== seat) throw new ProtocolError('not_your_turn', `it is seat ${toMove}'s turn, not seat ${seat}'s`, 'seat');
    let report: StepReport;
    try {
      report = this.game.step('cards' in move ? this.game.discardId(move.cards) : move.action);
    } catch (error) {
      if (error instanceof IllegalActionError) throw new ProtocolError('illegal_action', error.message, field, { reason: error.reason });
      throw error;
    }
    const after = this.game.counter;
    this.afterWrites(() => reply(after), dropped);
    this.played(report, false);
  }

  /** The view of the client seat to advise; it must be the seat to move. */
  adviceView(seatGiven: number | undefined, by: TableOwner): PlayerView {
    this.touched();
    const seat = this.clientSeat(seatGiven, by);
    if (this.game.toMove !== seat) {
      throw new ProtocolError(
        'not_your_turn',
        this.game.over ? 'the game is over' : `it is seat ${this.game.toMove}'s turn, not seat ${seat}'s`,
        'seat',
      );
    }
    return this.game.view(seat);
  }

  stateFor(seat: number): Msg<'state'> {
    const toMove = this.game.toMove;
    const mine = toMove === seat;
    return {
      type: 'state',
      table: this.id,
      seat,
      counter: this.game.counter,
      view: viewToJson(this.game.view(seat), this.settings.preset, this.settings.rules),
      toMove,
      legal: mine ? this.game.legalActions() : [],
      deadlineMs: mine && this.deadline !== null ? Math.max(0, this.deadline - this.services.now()) : null,
    };
  }

  close(): void {
    this.closed = true;
    this.clearTimers();
    this.owner = null;
    this.guests.clear();
    this.journal.close();
  }

  /** A message with a seat goes to that seat's person, one without to everyone at the table. */
  private deliver(message: ServerMessage): void {
    this.journal.afterWrites(() => {
      if ('seat' in message && typeof message.seat === 'number') this.ownerOf(message.seat)?.deliver(message);
      else for (const owner of this.owners()) owner.deliver(message);
    });
  }

  private sendStates(): void {
    if (this.settings.lobby) return;
    for (const seat of this.toldSeats()) this.deliver(this.stateFor(seat));
  }

  /**
   * Tells every client seat what a step showed, then its new state; then lets the next player
   * move. Unwatched (every client seat out of the game, or no connection), only the step that
   * ends a round (its event and round_end) and the end of the game are sent.
   */
  private played(report: StepReport, timeout: boolean): void {
    this.clearTimers();
    const counter = this.game.counter;
    const watched = this.watched;
    const told = watched || report.roundEnd !== null;
    for (const seat of this.toldSeats()) {
      const { action } = report;
      const cards = report.drawnCard !== null ? (seat === report.actor ? [report.drawnCard] : []) : report.publicCards;
      if (told)
        this.deliver({
          type: 'event',
          table: this.id,
          seat,
          counter,
          actor: report.actor,
          action: action.action,
          kind: action.kind,
          text: action.text,
          cards,
          reshuffled: report.reshuffled,
          timeout,
        });
      if (report.roundEnd) {
        const { round, result, hands } = report.roundEnd;
        this.deliver({
          type: 'round_end',
          table: this.id,
          seat,
          counter,
          round,
          outcome: result.outcome,
          caller: result.caller,
          hands,
          handValues: [...result.handValues],
          points: [...result.points],
          totals: [...result.totals],
          eliminated: [...result.eliminated],
          winner: result.winner,
        });
      }
    }
    if (report.gameOver) {
      this.sendStates();
      this.deliver(gameOverMessage(this.id, this.settings.seed, this.game));
      this.services.log.info(
        { event: 'game_over', table: this.id, counter, winner: this.game.winner(), truncated: this.game.truncated },
        this.game.truncated ? `game stopped at the turn cap (${this.settings.maxTurns} turns)` : 'game over',
      );
      return;
    }
    this.schedule();
    if (watched) this.sendStates();
  }

  /** Starts the bot's think delay, or the client seat's deadline (`resumeAt`: the one a restored table had). */
  private schedule(resumeAt?: number | null): void {
    const seat = this.game.toMove;
    if (seat === null || this.closed || this.halted || this.settings.lobby) return;
    const info = this.settings.seats[seat];
    if (info.player === 'bot' || (info.player === 'guest' && !this.guests.has(seat))) {
      const think = () => {
        this.botTimer = null;
        this.botImmediate = null;
        this.botMove(seat, info.agent ?? '');
      };
      const grace = this.guests.graceLeft(seat, this.services.now(), this.services.standInMs);
      const wait = Math.max(this.settings.thinkMs > 0 && this.watched ? this.settings.thinkMs : 0, grace);
      if (wait > 0) this.botTimer = setTimeout(think, wait);
      else this.botImmediate = setImmediate(think);
      return;
    }
    const deadline = this.settings.moveDeadlineMs;
    if (deadline === null) return;
    const now = this.services.now();
    this.deadline = resumeAt ?? now + deadline;
    this.deadlineTimer = setTimeout(
      () => {
        this.deadlineTimer = null;
        if (this.closed || this.halted || this.game.over) return;
        this.services.log.info(
          { event: 'deadline', table: this.id, seat, counter: this.game.counter },
          info.player === 'guest'
            ? 'a guest seat ran out of time: its stand-in bot plays the step'
            : 'a client seat ran out of time: default action',
        );
        if (info.player === 'guest') this.botMove(seat, info.agent ?? '', true);
        else this.played(this.game.step(this.game.defaultAction()), true);
      },
      Math.max(0, this.deadline - now),
    );
  }

  private botMove(seat: number, agent: string, timeout = false): void {
    if (this.closed || this.halted || this.deciding) return;
    const counter = this.game.counter;
    this.deciding = true;
    const view = this.game.view(seat);
    this.seatAgents
      .of(agent)
      .then((resolved) => this.services.decide(resolved, view, mixSeed(this.settings.seed, counter)))
      .then(
        (result) => {
          this.deciding = false;
          if (this.closed || this.halted || this.game.counter !== counter) return;
          let action = result.ok ? result.action : -1;
          if (!this.game.isLegal(action)) {
            this.services.log.error(
              {
                event: 'bot_failed',
                table: this.id,
                seat,
                agent,
                code: result.ok ? 'illegal' : result.code,
                err: result.ok ? `illegal action ${action}` : result.message,
              },
              'a bot failed to decide: default action',
            );
            action = this.game.defaultAction();
          }
          this.played(this.game.step(action), timeout);
        },
        (error: Error) => {
          this.deciding = false;
          this.services.log.error({ event: 'bot_failed', table: this.id, err: error.message }, 'a bot failed to decide');
        },
      );
  }

  private clearTimers(): void {
    if (this.botTimer) clearTimeout(this.botTimer);
    if (this.botImmediate) clearImmediate(this.botImmediate);
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.botTimer = null;
    this.botImmediate = null;
    this.deadlineTimer = null;
    this.deadline = null;
  }
}
