/**
 * Loops calling back to back until a moment: how the fairness benchmark, its fleet workers and
 * test/core/fairness.test.ts load one client with several independent callers.
 */

/** `loops` loops each calling `call` back to back, starting no call after `ms`; how many calls each completed. */
export async function race(loops: number, ms: number, call: (loop: number) => Promise<unknown>): Promise<number[]> {
  const served = new Array<number>(loops).fill(0);
  const until = performance.now() + ms;
  await Promise.all(
    served.map(async (_, loop) => {
      while (performance.now() < until) {
        await call(loop);
        served[loop]!++;
      }
    }),
  );
  return served;
}

/** The most served loop ÷ the least served (Infinity when one starved). */
export const unevenness = (served: readonly number[]): number => Math.max(...served) / Math.min(...served);
