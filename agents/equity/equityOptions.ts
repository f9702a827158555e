// The settings of `yaniv equity` (cli/equity.ts), as a schema: its flags, --help and the docs'
// flag table come from here.
import { z } from 'zod';
import { MAX_PLAYERS, MIN_PLAYERS } from '../../env/rules/rules.js';
import { type FlagSpecs } from '../../support/schemaFlags.js';
import { intFrom } from '../../support/zod.js';
import { agentSpecSchema } from '../registry.js';

export const equityOptionsSchema = z.strictObject({
  players: intFrom(MIN_PLAYERS, MAX_PLAYERS).default(2).describe('Seats at the table.'),
  agent: agentSpecSchema.default('strong').describe('The agent at every seat.'),
  rounds: intFrom(1).default(40_000).describe('Heads-up: rounds to simulate.'),
  games: intFrom(1).default(4000).describe('3–8 seats: games to play out.'),
  seed: intFrom(0, 2 ** 31 - 1)
    .default(1)
    .describe('The same seed gives the same data.'),
  out: z.string().min(1).optional().describe('Write the equity data (JSON) here.'),
  check: intFrom(0).default(0).describe('Also play this many games from each printed spot.'),
});
export type EquityOptions = z.output<typeof equityOptionsSchema>;

export const EQUITY_FLAGS: FlagSpecs<typeof equityOptionsSchema.shape> = {
  agent: { value: '<spec>' },
  out: { value: '<file>' },
  check: { value: '<games>' },
};
