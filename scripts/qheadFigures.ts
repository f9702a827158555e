// The q head's figures on held-out positions (scripts/qheadTrain.ts prints them and writes them to
// the model's card): its error against the teacher (the judge's 32-world playouts) beside the
// advice's 8-world judge's, how often each puts the moves in the teacher's order, and against
// the games' outcomes (the move played: the candidates' first).
import { OBSERVATION_SIZE } from '../env/gym/observation.js';
import type { SinglePolicyValueEvaluator } from '../nn/singleEvaluator.js';
import { type QHeadSample, denseObservation } from '../agents/equity/qHeadData.js';
import type { QHead } from '../agents/equity/qHead.js';

/** Pairs whose teacher's chances differ by less than this are not counted in the order agreement. */
const ORDER_GAP = 0.02;

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const quantile = (xs: readonly number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
const argmax = (xs: readonly number[]) => xs.reduce((best, x, i) => (x > xs[best] ? i : best), 0);
const round = (x: number, digits = 4) => Number(x.toFixed(digits));

interface Tally {
  head: number[];
  judge: number[];
  headJudge: number[];
  headPoints: number[];
  judgePoints: number[];
  top1: number[];
  top1Judge: number[];
  order: number[];
  orderJudge: number[];
  brier: number[];
  brierJudge: number[];
  brierTeacher: number[];
  played: number[];
  won: number[];
  pairErrors: number[];
}

const emptyTally = (): Tally => ({
  head: [],
  judge: [],
  headJudge: [],
  headPoints: [],
  judgePoints: [],
  top1: [],
  top1Judge: [],
  order: [],
  orderJudge: [],
  brier: [],
  brierJudge: [],
  brierTeacher: [],
  played: [],
  won: [],
  pairErrors: [],
});

function count(t: Tally, s: QHeadSample, win: number[], points: number[]): void {
  const teacher = s.teacher.win;
  const judged = s.judged.win;
  win.forEach((w, i) => {
    t.head.push(Math.abs(w - teacher[i]));
    t.judge.push(Math.abs(judged[i] - teacher[i]));
    t.headJudge.push(Math.abs(w - judged[i]));
    t.headPoints.push(Math.abs(points[i] - s.teacher.points[i]));
    t.judgePoints.push(Math.abs(s.judged.points[i] - s.teacher.points[i]));
    if (i > 0) t.pairErrors.push(Math.abs(w - win[0] - (teacher[i] - teacher[0])));
    for (let j = 0; j < i; j++) {
      const gap = teacher[i] - teacher[j];
      if (Math.abs(gap) < ORDER_GAP) continue;
      t.order.push(Math.sign(w - win[j]) === Math.sign(gap) ? 1 : 0);
      t.orderJudge.push(Math.sign(judged[i] - judged[j]) === Math.sign(gap) ? 1 : 0);
    }
  });
  t.top1.push(argmax(win) === argmax(teacher) ? 1 : 0);
  t.top1Judge.push(argmax(judged) === argmax(teacher) ? 1 : 0);
  const won = s.won ? 1 : 0;
  t.brier.push((win[0] - won) ** 2);
  t.brierJudge.push((judged[0] - won) ** 2);
  t.brierTeacher.push((teacher[0] - won) ** 2);
  t.played.push(win[0]);
  t.won.push(won);
}

/** Percentage points (a mean absolute error of chances), points, shares. */
function summary(t: Tally): Record<string, number> {
  return {
    positions: t.top1.length,
    maeVsTeacherPp: round(100 * mean(t.head), 2),
    judge8MaeVsTeacherPp: round(100 * mean(t.judge), 2),
    maeVsJudge8Pp: round(100 * mean(t.headJudge), 2),
    pointsMaeVsTeacher: round(mean(t.headPoints), 2),
    judge8PointsMaeVsTeacher: round(mean(t.judgePoints), 2),
    top1AgreesWithTeacher: round(mean(t.top1), 3),
    judge8Top1AgreesWithTeacher: round(mean(t.top1Judge), 3),
    pairOrderAgreesWithTeacher: round(mean(t.order), 3),
    judge8PairOrderAgreesWithTeacher: round(mean(t.orderJudge), 3),
    brierVsOutcome: round(mean(t.brier)),
    judge8BrierVsOutcome: round(mean(t.brierJudge)),
    teacherBrierVsOutcome: round(mean(t.brierTeacher)),
    meanPlayedChance: round(mean(t.played), 3),
    wonShare: round(mean(t.won), 3),
  };
}

/** The head's figures on `test`, by table size, and the margin and intervals it ships with. */
export function heldOutFigures(
  head: QHead,
  trunk: SinglePolicyValueEvaluator,
  test: readonly QHeadSample[],
): { margin: number; heldOut: { positions: number; win95: number; points95: number; byPlayers: Record<string, Record<string, number>> } } {
  const all = emptyTally();
  const bySize = new Map<number, Tally>();
  for (const s of test) {
    const h = trunk.trunkOf(denseObservation(s, OBSERVATION_SIZE));
    const { win, points } = head.values(h, Int16Array.from(s.context), s.roundStart, s.candidates, (a) => trunk.baseLogit(h, a));
    if (!bySize.has(s.players)) bySize.set(s.players, emptyTally());
    count(all, s, win, points);
    count(bySize.get(s.players) as Tally, s, win, points);
  }
  const byPlayers = Object.fromEntries([...bySize].sort(([a], [b]) => a - b).map(([n, t]) => [String(n), summary(t)]));
  console.log(JSON.stringify({ all: summary(all), byPlayers }, null, 2));
  return {
    margin: round(quantile(all.pairErrors, 0.95)),
    heldOut: {
      positions: test.length,
      win95: round(quantile(all.head, 0.95)),
      points95: round(quantile(all.headPoints, 0.95), 2),
      byPlayers,
    },
  };
}
