import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain line, `N passed, N failed, N skipped`, that any CI can read; before
 * it, each test skipped for a reason (`context.skip(reason)`: no Chromium, no runtime download)
 * with that reason, which the default reporter shows only as "1 skipped".
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const counts = { passed: 0, failed: 0, skipped: 0, pending: 0 };
    const reasons: string[] = [];
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        counts[result.state]++;
        if (result.state === 'skipped' && result.note) {
          reasons.push(`skipped: ${relative(process.cwd(), module.moduleId)} > ${test.fullName}: ${result.note}`);
        }
      }
    }
    if (reasons.length) console.log(`\n${reasons.join('\n')}`);
    console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped + counts.pending} skipped`);
  }
}
