/**
 * The benchmarks' smoke form: they run and produce sane figures. Their speed is not asserted
 * here (machines are noisy); `bench/` reports it as ratios.
 */
import { expect, it } from 'vitest';

it('the mock throughput benchmark runs', async () => {
  process.env.BENCH_SMOKE = '1';
  const { mockThroughput } = await import('../bench/mock-throughput');
  const rates = await mockThroughput();
  for (const rate of Object.values(rates)) {
    expect(rate.median).toBeGreaterThan(0);
    expect(rate.min).toBeLessThanOrEqual(rate.max);
  }
}, 60_000);
