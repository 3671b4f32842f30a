/**
 * A small benchmark harness: each measure runs in several rounds after a warm-up, and reports
 * the median rate with its spread. Benchmarks compare ratios against a baseline measured in the
 * same run, because absolute figures move with the machine's load.
 */

export interface Rate {
  /** Operations per second: median of the rounds. */
  median: number;
  min: number;
  max: number;
  rounds: number;
}

export interface MeasureOptions {
  /** Rounds to take the median of (default 7). */
  rounds?: number;
  /** Operations per round (default 2000). */
  operations?: number;
  /** Operations run first and not counted (default a round's worth). */
  warmup?: number;
}

/** One row of the results: a measure, its baseline, their ratio and the goal. */
export interface Comparison {
  name: string;
  /** The measured figure and the baseline's, as text (median and spread). */
  value: string;
  baseline: string;
  ratio: number;
  /** e.g. `≤ 1.15×`. */
  goal: string;
  met: boolean;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Runs `operation` sequentially and reports operations per second. */
export async function measure(operation: (i: number) => Promise<unknown>, options: MeasureOptions = {}): Promise<Rate> {
  const { rounds = 7, operations = 2000, warmup = operations } = options;
  for (let i = 0; i < warmup; i++) await operation(i);
  const rates: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    for (let i = 0; i < operations; i++) await operation(i);
    rates.push((operations * 1000) / (performance.now() - start));
  }
  return { median: median(rates), min: Math.min(...rates), max: Math.max(...rates), rounds };
}

/** Several passes of one measure merged: the median of their medians, the widest spread. */
export const merge = (rates: Rate[]): Rate => ({
  median: median(rates.map((r) => r.median)),
  min: Math.min(...rates.map((r) => r.min)),
  max: Math.max(...rates.map((r) => r.max)),
  rounds: rates.reduce((n, r) => n + r.rounds, 0),
});

/** `1234/s (1100–1300)`. */
export const formatRate = (rate: Rate) => `${Math.round(rate.median)}/s (${Math.round(rate.min)}–${Math.round(rate.max)})`;

/** Whether a ratio meets a goal written as `≤ 1.15×` or `≥ 0.8×`. */
export function meets(ratio: number, goal: string): boolean {
  const [, op, bound] = /^([≤≥]) ([\d.]+)/.exec(goal) ?? [];
  return op === '≤' ? ratio <= Number(bound) : ratio >= Number(bound);
}

/**
 * Compares two sets of rates. `'time'`: the ratio of the measure's time per operation to the
 * baseline's (baseline rate / measure rate: 1.10 means 10 % slower). `'rate'`: measure rate /
 * baseline rate.
 */
export function ratioOf(name: string, goal: string, measured: Rate[], baseline: Rate[], kind: 'time' | 'rate'): Comparison {
  const m = merge(measured);
  const b = merge(baseline);
  const ratio = kind === 'time' ? b.median / m.median : m.median / b.median;
  return { name, value: formatRate(m), baseline: formatRate(b), ratio, goal, met: meets(ratio, goal) };
}

/** Whether this run is the short CI smoke form (`BENCH_SMOKE=1`): check it works, not its speed. */
export const smoke = process.env.BENCH_SMOKE === '1';
