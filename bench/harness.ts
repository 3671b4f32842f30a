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

const median = (values: number[]) => {
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

/** `1234/s (1100–1300)`. */
export const formatRate = (rate: Rate) => `${Math.round(rate.median)}/s (${Math.round(rate.min)}–${Math.round(rate.max)})`;

/** Whether this run is the short CI smoke form (`BENCH_SMOKE=1`): check it works, not its speed. */
export const smoke = process.env.BENCH_SMOKE === '1';
