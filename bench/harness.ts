/**
 * A small benchmark harness. Every goal is a ratio against a baseline measured in the same run,
 * and, more than that, in the same moments: `interleave` alternates short rounds of the measure and
 * of its baseline and takes the ratio round by round. On a shared machine the CPU a process gets
 * drifts from second to second; rounds of ~50 ms side by side see the same drift, where two
 * blocks of several seconds each do not (this VM showed round spreads of 2–3× between blocks).
 * Figures are medians with their interquartile range.
 */

/** A median and the interquartile range around it. */
export interface Spread {
  median: number;
  low: number;
  high: number;
}

/** One row of the results table. */
export interface Comparison {
  name: string;
  /** The measured figure, as text. */
  value: string;
  /** The baseline's figure, as text. */
  baseline: string;
  /** Measure ÷ baseline as the goal reads it; `null` for an absolute figure. */
  ratio: Spread | null;
  /** e.g. `≤ 1.15×`, or `null` for a row that only gives context. */
  goal: string | null;
  met: boolean | null;
  /** What the figure means or what holds it back, printed under the table. */
  note?: string;
}

export interface InterleaveOptions {
  /** Rounds of each side (default 40). */
  rounds?: number;
  /** Operations per round (default 50). */
  operations?: number;
  /** Operations of each side run first and not counted (default 500). */
  warmup?: number;
}

/** Whether this run is the short CI smoke form (`BENCH_SMOKE=1`): check it works, not its speed. */
export const smoke = process.env.BENCH_SMOKE === '1';

const quantile = (sorted: number[], q: number) => {
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  return sorted[below]! + (sorted[Math.ceil(at)]! - sorted[below]!) * (at - below);
};

export function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), low: quantile(sorted, 0.25), high: quantile(sorted, 0.75) };
}

/** `1234 (1100–1300) unit`, with `digits` decimals. */
export const format = ({ median, low, high }: Spread, unit: string, digits = 0) =>
  `${median.toFixed(digits)} ${unit} (${low.toFixed(digits)}–${high.toFixed(digits)})`;

/** Whether a ratio meets a goal written as `≤ 1.15×` or `≥ 0.8×`. */
function meets(ratio: number, goal: string): boolean {
  const [, op, bound] = /^([≤≥]) ([\d.]+)/.exec(goal) ?? [];
  return op === '≤' ? ratio <= Number(bound) : ratio >= Number(bound);
}

/** A row whose ratio is judged against `goal` on its median. */
export const row = (name: string, value: string, baseline: string, ratio: Spread, goal: string): Comparison => ({
  name,
  value,
  baseline,
  ratio,
  goal,
  met: meets(ratio.median, goal),
});

/** Milliseconds `operations` sequential calls of `operation` take. */
async function timeRound(operation: (i: number) => Promise<unknown>, operations: number, offset: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < operations; i++) await operation(offset + i);
  return performance.now() - start;
}

export interface Interleaved<Side extends string> {
  /** Operations per second of one side. */
  rate(side: Side): Spread;
  /** Per round: `a`'s time ÷ `b`'s (1.10: `a` is 10 % slower). */
  timeRatio(a: Side, b: Side): Spread;
  /** Per round: `a`'s rate ÷ `b`'s. */
  rateRatio(a: Side, b: Side): Spread;
}

/**
 * Rounds for ratios a goal wants within a few percent: many short rounds, so a collection or the
 * machine's other work lands in few of them (the default, 40 rounds of 50 calls, spread a
 * per-call ratio ±15 % here, and its median moved by as much from run to run).
 */
export const PRECISE: InterleaveOptions = { rounds: 200, operations: 25 };

/**
 * Runs every side in turn, round after round, rotating which goes first and running every other
 * round backwards, so ratios between any two sides can be taken round by round.
 */
export async function interleave<Side extends string>(
  sides: Record<Side, (i: number) => Promise<unknown>>,
  options: InterleaveOptions = {},
): Promise<Interleaved<Side>> {
  const { rounds = 40, operations = 50, warmup = 500 } = smoke ? { rounds: 2, operations: 5, warmup: 5 } : options;
  const names = Object.keys(sides) as Side[];
  const ms = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Side, number[]>;
  for (const name of names) await timeRound(sides[name], warmup, 0);
  for (let round = 0; round < rounds; round++) {
    // Each round starts at the next side, and every other round runs backwards: what a side
    // leaves behind (garbage to collect, a cooled cache) lands on the side after it, and in a
    // plain rotation that is always the same one, which skews a ratio of two close sides.
    const order = names.map((_, k) => names[(round + k) % names.length]!);
    if (round % 2 === 1) order.reverse();
    for (const name of order) ms[name].push(await timeRound(sides[name], operations, round * operations));
  }
  const perRound = (a: Side, b: Side) => spread(ms[a].map((t, i) => t / ms[b][i]!));
  return {
    rate: (side) => spread(ms[side].map((t) => (operations * 1000) / t)),
    timeRatio: perRound,
    rateRatio: (a, b) => perRound(b, a),
  };
}

/**
 * Runs `bench` and prints its rows, when the module that calls this is the one run
 * (`npx tsx bench/fairness.ts`); `npm run bench` imports the module and prints nothing here.
 */
export async function runWhenMain(moduleUrl: string, bench: () => Promise<Comparison | Comparison[]>): Promise<void> {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  for (const r of [await bench()].flat()) {
    const ratio = r.ratio ? `${r.ratio.median.toFixed(3)}× (${r.ratio.low.toFixed(3)}–${r.ratio.high.toFixed(3)})` : '—';
    console.log(`${r.name}: ${r.value} | ${r.baseline} | ${ratio} | goal ${r.goal ?? 'context'} | met ${r.met ?? '—'}`);
  }
}
