// The Python faces' throughput beside the in-process env, in one run: YanivEnv vs the bridge's
// PettingZoo AEC loop, VecEnv vs YanivVectorEnv at N = 64/256/1024, and the RLCard-based yaniv-rl
// where it is installed (at 2 seats, its default table). Random legal actions, standard rules, 4 seats, whole games. Each pair is
// measured back to back so that the machine's load is alike for both. Needs python3 (the venv
// npm test makes; made here if missing).
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { PYTHON_DIR, ensureVenv, systemPython } from '../scripts/pythonEnv.js';
import { type EnvBenchResult, measureSingle, measureVec } from './env.js';

const SECONDS = 3;
const PLAYERS = 4;

interface PythonResult {
  steps: number;
  seconds: number;
  /** Python's CPU seconds and its node children's. */
  cpuSeconds: number;
  skipped?: string;
}

function python(venv: string, args: (string | number)[]): PythonResult {
  const script = path.join(PYTHON_DIR, 'benchmarks', 'bridge_speed.py');
  const result = spawnSync(venv, [script, ...args.map(String)], { encoding: 'utf8', cwd: PYTHON_DIR });
  const line = result.stdout.trim().split('\n').pop() ?? '';
  if (result.status !== 0 && !line.startsWith('{')) throw new Error(`bridge_speed.py ${args.join(' ')} failed:\n${result.stderr}`);
  return JSON.parse(line) as PythonResult;
}

const perSecond = (steps: number, seconds: number) => steps / seconds;
const k = (rate: number) => `${(rate / 1000).toFixed(1)}k`;
const load = () => os.loadavg()[0].toFixed(1);

/** Wall rates side by side, then the rates per CPU-second (the bridge's: Python's and node's CPU summed). */
function row(label: string, inProcess: EnvBenchResult, bridged: PythonResult): void {
  const ours = perSecond(inProcess.steps, inProcess.seconds);
  const theirs = perSecond(bridged.steps, bridged.seconds);
  const oursCpu = perSecond(inProcess.steps, inProcess.cpuSeconds);
  const theirsCpu = perSecond(bridged.steps, bridged.cpuSeconds);
  console.log(
    `${label.padEnd(34)} in-process ${k(ours).padStart(8)}/s   from Python ${k(theirs).padStart(8)}/s   ratio ${(theirs / ours).toFixed(2)}` +
      `   | per CPU-s ${k(oursCpu)} vs ${k(theirsCpu)} (${(theirsCpu / oursCpu).toFixed(2)})   (load ${load()})`,
  );
}

export function run(): void {
  const system = systemPython();
  if (system === null) return;
  const venv = ensureVenv(system);
  console.log(
    `Steps per wall second, random legal actions, ${PLAYERS} seats, ${SECONDS} s each; the bridge side includes Python's own work. ` +
      "Per CPU-second: the bridge's steps over Python's and node's CPU time together (what a step costs, whatever else runs).",
  );
  measureSingle(0.5, false, PLAYERS);
  row('AEC loop (yaniv_v0.env, agent_iter)', measureSingle(SECONDS, false, PLAYERS), python(venv, ['aec', SECONDS, PLAYERS]));
  row('AEC loop (raw_env: no wrappers)', measureSingle(SECONDS, false, PLAYERS), python(venv, ['aec-raw', SECONDS, PLAYERS]));
  for (const num of [64, 256, 1024]) {
    measureVec(0.5, num, PLAYERS);
    row(`vector env N=${num}`, measureVec(SECONDS, num, PLAYERS), python(venv, ['vector', SECONDS, PLAYERS, num]));
    if (num === 256)
      row(`  arrays through the pipe`, measureVec(SECONDS, num, PLAYERS), python(venv, ['vector-pipe', SECONDS, PLAYERS, num]));
  }
  for (const players of [2]) {
    const rl = python(venv, ['yaniv-rl', SECONDS, players]);
    const aec = python(venv, ['aec', SECONDS, players]);
    if (rl.skipped) {
      console.log(`yaniv-rl, ${players} seats: not measured: ${rl.skipped}`);
      break;
    }
    const ratio = perSecond(aec.steps, aec.seconds) / perSecond(rl.steps, rl.seconds);
    console.log(
      `yaniv-rl, ${players} seats: ${k(perSecond(rl.steps, rl.seconds))}/s; the AEC loop ${k(perSecond(aec.steps, aec.seconds))}/s (${ratio.toFixed(2)}×)`,
    );
  }
}
