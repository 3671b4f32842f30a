// Run only by test/house/summary-reporter.test.ts: one test skipped with a reason, one without, one passing.
import { expect, it } from 'vitest';

it('needs a tool this machine lacks', (context) => {
  context.skip('the-tool is not installed (here: apt-get install the-tool)');
});
it.skipIf(true)('is skipped without a reason', () => undefined); // skipIf: a plain skip reads as one left in by mistake
it('passes', () => expect(1).toBe(1));
