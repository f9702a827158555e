// `yaniv replay FILE [--json]` (RECORD.md, "Replay result"): exit 0 when the record
// replays, 1 at an illegal move, 2 when the document is not a valid record.
import { readFileSync } from 'node:fs';
import Table from 'cli-table3';
import { RecordError, type ReplayResult, parseRecord, replay } from '../env/rules/record.js';

export const EXIT_OK = 0;
export const EXIT_ILLEGAL_MOVE = 1;
export const EXIT_INVALID_RECORD = 2;

export interface CommandOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export function replayCommand(file: string, options: { json?: boolean }): CommandOutput {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return invalid(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, options);
  }
  let result: ReplayResult;
  let label: string;
  try {
    const record = parseRecord(text);
    label = `${record.preset}${Object.keys(record.rules).length ? ' + ' + JSON.stringify(record.rules) : ''}, ${record.players} players`;
    result = replay(record).result;
  } catch (error) {
    if (error instanceof RecordError) return invalid(error.message, options);
    throw error;
  }
  const exitCode = result.ok ? EXIT_OK : EXIT_ILLEGAL_MOVE;
  const stdout = options.json ? JSON.stringify(result, null, 2) + '\n' : formatResult(result, label);
  return { stdout, stderr: '', exitCode };
}

function invalid(message: string, options: { json?: boolean }): CommandOutput {
  return {
    stdout: options.json ? JSON.stringify({ ok: false, error: message }, null, 2) + '\n' : '',
    stderr: `yaniv replay: not a valid record: ${message}\n`,
    exitCode: EXIT_INVALID_RECORD,
  };
}

const show = (v: number | null | undefined) => (v === null || v === undefined ? '–' : String(v));

/** Seats and rounds as people count them, from 1 (as the browser page does); the record and --json count from 0. */
const forPeople = (index: number | null) => (index === null ? '–' : String(index + 1));

/** The replay result for people: a table per round, then the game; seats and rounds counted from 1. */
export function formatResult(result: ReplayResult, label: string): string {
  if (!result.ok)
    return `Illegal move in round ${forPeople(result.round)}, move ${forPeople(result.move)} (rounds[${result.round}].moves[${result.move}]): ${result.error}\n`;
  const lines = [
    `Record: ${label}`,
    'Seats and rounds are counted from 1, as the browser page counts them (the file and --json count from 0).',
  ];
  result.rounds.forEach((round, r) => {
    const how =
      round.outcome === 'unfinished'
        ? 'unfinished'
        : `${round.outcome}${round.caller !== null ? ` by seat ${forPeople(round.caller)}` : ''}, won by seat ${forPeople(round.winner)}`;
    lines.push('', `Round ${forPeople(r)}: ${how}`);
    const table = new Table({ head: ['seat', 'hand', 'points', 'total', ''], style: { head: [], border: [], compact: true } });
    round.handValues.forEach((value, seat) => {
      const notes = [seat === round.caller ? 'caller' : '', round.eliminated.includes(seat) ? 'eliminated' : ''].filter(Boolean).join(', ');
      table.push([forPeople(seat), show(value), show(round.points?.[seat]), show(round.totals[seat]), notes]);
    });
    lines.push(table.toString());
  });
  lines.push('', `Totals: ${result.totals.join(' ')}; in the game: seats ${result.active.map(forPeople).join(', ')}`);
  lines.push(result.gameOver ? `Game over: seat ${forPeople(result.winner)} wins.` : 'The game goes on.');
  return lines.join('\n') + '\n';
}
