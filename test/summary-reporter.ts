import type { Reporter, TestModule } from 'vitest/node';

/** Ends the run with one plain line, `N passed, N failed, N skipped`, that any CI can read. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const counts = { passed: 0, failed: 0, skipped: 0, pending: 0 };
    for (const module of modules) for (const test of module.children.allTests()) counts[test.result().state]++;
    console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped + counts.pending} skipped`);
  }
}
