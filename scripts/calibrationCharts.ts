// The reliability diagrams of the shipped held-out checks (agents/equity/calibrationChecks.ts): one
// SVG a preset, a panel per table size, from models/calibration/PRESET-PLAYERS.json (each written
// by `yaniv calibrate --players N --seed 2 --json …`, so that each table is checked on its own and
// the runs can be made one at a time):
//   node dist/scripts/calibrationCharts.js   → models/calibration/PRESET.svg
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  CALIBRATION_CHECKS_DIR,
  type ShippedCheck,
  reliabilitySpec,
  shippedCalibrationChecks,
} from '../agents/equity/calibrationChecks.js';
import { packageRoot } from '../agents/models/modelFolder.js';
import { renderVegaLite } from '../support/vegaSvg.js';

/** The diagram's title: what was played, and on which seed and how many games a size. */
function titleOf(preset: string, checks: readonly ShippedCheck[]): string {
  const { agent, worlds } = checks[0].config;
  const seeds = [...new Set(checks.map((c) => c.config.seed))].join(', ');
  const games = checks.map((c) => `${c.size.players}: ${c.size.games}`).join(', ');
  return `${preset}, held out (seed ${seeds}): ${agent} at every seat, ${worlds} worlds; games by size ${games}`;
}

const checks = shippedCalibrationChecks();
for (const preset of [...new Set(checks.map((c) => c.preset))]) {
  const mine = checks.filter((c) => c.preset === preset);
  const file = path.join(packageRoot(), CALIBRATION_CHECKS_DIR, `${preset}.svg`);
  writeFileSync(
    file,
    await renderVegaLite(
      reliabilitySpec(
        mine.map((c) => c.size),
        titleOf(preset, mine),
      ),
    ),
  );
  console.log(`wrote ${file}: ${mine.length} table sizes`);
}
