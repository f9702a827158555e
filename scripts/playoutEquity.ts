// Ships the game equity of a preset at table sizes no `yaniv equity` data ships for, measured the
// way the server measures it on the fly (agents/equity/equityPlayouts.ts: whole games of the strong
// playout, fitted by the learned predictor) but on more games:
//   node dist/scripts/playoutEquity.js PRESET GAMES SIZE...   (e.g. standard 1500 5 6 7 8)
// writes models/equity/PRESET-SIZE.json (the format `yaniv equity` writes; agent "strong-playout").
import { writeFileSync } from 'node:fs';
import { shippedEquityFile } from '../agents/equity/equity.js';
import { fitSeatPredictor } from '../agents/equity/equityFit.js';
import { playoutSeatStates } from '../agents/equity/equityPlayouts.js';
import { EQUITY_FORMAT, type SeatsEquityData } from '../env/gym/equityData.js';
import { resolveRules } from '../env/rules/rules.js';

const [preset, gamesText, ...sizes] = process.argv.slice(2);
const games = Number(gamesText);
if (!preset || !Number.isInteger(games) || games < 1 || sizes.length === 0) {
  process.stderr.write('usage: node dist/scripts/playoutEquity.js PRESET GAMES SIZE...\n');
  process.exit(2);
}
for (const players of sizes.map(Number)) {
  const rules = resolveRules({ preset, players });
  const started = performance.now();
  const states = playoutSeatStates(rules, players, games, players);
  const { predictor, report } = fitSeatPredictor(rules, players, states);
  const data: SeatsEquityData = {
    format: EQUITY_FORMAT,
    preset,
    overrides: {},
    agent: 'strong-playout',
    players,
    games,
    states: states.length,
    predictor,
  };
  writeFileSync(shippedEquityFile(preset, players), JSON.stringify(data) + '\n');
  const fit = Object.entries(report.byActive).map(([n, r]) => `${n} in: ${r.holdout.toFixed(3)} (uniform ${r.uniform.toFixed(3)})`);
  console.log(
    `${preset}-${players}: ${games} games, ${states.length} states, ${((performance.now() - started) / 1000).toFixed(0)} s; held-out cross-entropy ${fit.join(', ')}`,
  );
}
