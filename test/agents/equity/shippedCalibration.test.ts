// The shipped calibration maps (models/equity/calibration) and their held-out checks
// (models/calibration): every map parses and is monotone, sits beside a shipped equity, is the one
// the advice at its table shows its chance through, was fitted to the advice as it is now, and has a
// check made through it on another seed; a table without a map is shown the chance as played out.
import { describe, expect, it } from 'vitest';
import { shippedCalibrationChecks } from '../../../agents/equity/calibrationChecks.js';
import { applyCalibration, calibrateEstimate, shippedCalibrationMaps } from '../../../agents/equity/calibrationMap.js';
import { shippedEquitySizes } from '../../../agents/equity/equity.js';
import { equityForTable } from '../../../agents/equity/equityPlayouts.js';
import { OUTLOOK_DEFAULTS, moveOutlooks, outlookCandidates } from '../../../agents/equity/moveOutlook.js';
import { Episode, parseEnvOptions } from '../../../env/gym/episode.js';
import { Table } from '../../../env/gym/table.js';
import { randomInt, seededRng } from '../../../env/rules/random.js';
import { resolveRules } from '../../../env/rules/rules.js';
import type { PlayerView } from '../../../env/rules/view.js';
import { outlookOf } from '../../../serve/inference/winChance.js';

const maps = shippedCalibrationMaps();

/** A decision some turns into a game of random legal moves at this table: the seat's view and its legal ids. */
function decision(preset: string, players: number, seed: number): { view: PlayerView; legal: number[] } {
  const table = new Table(new Episode(parseEnvOptions({ preset, players, episode: 'game', history: false })));
  table.reset({ seed });
  const rng = seededRng(seed);
  for (let step = 0; step < 3 * players; step++) {
    const legal = Array.from(table.legalIds.subarray(0, table.legalCount));
    table.step(legal[randomInt(rng, 0, legal.length - 1)]);
  }
  return { view: table.input().view, legal: Array.from(table.legalIds.subarray(0, table.legalCount)) };
}

describe('the shipped calibration maps', () => {
  it('ship for standard, dutch and norwegian, each beside its equity', () => {
    const presets = new Set(maps.map((m) => m.preset));
    for (const preset of ['standard', 'dutch', 'norwegian']) expect(presets.has(preset), preset).toBe(true);
    for (const map of maps) expect(shippedEquitySizes(map.preset), `${map.preset}-${map.players}`).toContain(map.players);
  });

  it.each(maps.map((m) => [`${m.preset}-${m.players}`, m] as const))(
    '%s is monotone within [0, 1], fitted to the advice as it is now',
    (_name, map) => {
      expect(map.worlds).toBe(OUTLOOK_DEFAULTS.worlds);
      let before = 0;
      for (let p = 0; p <= 1; p += 0.005) {
        const mapped = applyCalibration(map.knots, p);
        expect(mapped).toBeGreaterThanOrEqual(before);
        expect(mapped).toBeLessThanOrEqual(1);
        before = mapped;
      }
    },
  );

  it.each(maps.map((m) => [`${m.preset}-${m.players}`, m] as const))('the advice at %s shows its chance through the map', (_name, map) => {
    const table = equityForTable(resolveRules({ preset: map.preset, players: map.players }), map.players);
    expect(table.source).toBe('shipped');
    expect(table.calibration).toEqual(map);
    const { view, legal } = decision(map.preset, map.players, map.players);
    const candidates = outlookCandidates(view, legal, legal[0], []);
    const [raw] = moveOutlooks(view, candidates, table.equity, 3).filter((o) => o.standing === 'suggested');
    const mapped = calibrateEstimate(map, raw.win!);
    const advice = outlookOf(view, legal, legal[0], [], 3);
    expect([advice.win?.probability, advice.win?.low, advice.win?.high]).toEqual([mapped.mean, mapped.low, mapped.high]);
  });

  it('each has a held-out check made through it on another seed', () => {
    const checks = shippedCalibrationChecks();
    for (const { knots: _knots, ...provenance } of maps) {
      const check = checks.find((c) => c.preset === provenance.preset && c.size.players === provenance.players);
      expect(check, `${provenance.preset}-${provenance.players}`).toBeDefined();
      expect(check!.size.unmapped?.map).toEqual(provenance);
      expect(check!.config.seed).not.toBe(provenance.seed);
      expect(check!.config.worlds).toBe(OUTLOOK_DEFAULTS.worlds);
    }
  });

  it('leaves the chance as played out at a table without a map (a preset with no shipped equity)', () => {
    const table = equityForTable(resolveRules({ preset: 'nepal', players: 3 }), 3);
    expect(table.calibration).toBeNull();
    const { view, legal } = decision('nepal', 3, 5);
    const [raw] = moveOutlooks(view, outlookCandidates(view, legal, legal[0], []), table.equity, 3).filter(
      (o) => o.standing === 'suggested',
    );
    expect(outlookOf(view, legal, legal[0], [], 3).win?.probability).toBe(raw.win!.mean);
  });
});
