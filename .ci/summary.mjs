// Prints vitest's own counts (from its JSON reporter, configured in vitest.config.ts) as the plain line
// `N passed, N failed` that CI reads. Exits non-zero when the report is missing or shows no test at all.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.cache/test-report.json';
if (!existsSync(file)) {
  console.log('0 passed, 1 failed');
  console.error(`summary: ${file} was not written; the test run did not finish`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(passed === 0 || failed > 0 ? 1 : 0);
