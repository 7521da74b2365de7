// Sums the JSON reports of every test runner into one closing line: "N passed, N failed, N skipped".
// A missing report counts as one failure: its suite did not run to the end. The differential
// suite's report (reports/differential.json) is not a runner's: its one line is printed as written,
// how many corpus requests agree with each reference and how many deviations are listed.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const totals = { passed: 0, failed: 0, skipped: 0 };
const readers = {
  vitest: (r) => ({
    passed: r.numPassedTests,
    // A file that failed to load has no test results: count it as one failure.
    failed: r.numFailedTests + r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length,
    skipped: r.numPendingTests + r.numTodoTests,
  }),
  playwright: (r) => ({
    passed: r.stats.expected + r.stats.flaky,
    failed: r.stats.unexpected + (r.errors?.length ?? 0),
    skipped: r.stats.skipped,
  }),
};

/** Every skipped Playwright test with the reason it gave, so a skip is never silent. */
function playwrightSkips(report) {
  const out = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'skipped') continue;
        const reason = t.annotations?.find((a) => a.type === 'skip')?.description ?? 'no reason given';
        out.push(`${spec.file} > ${spec.title}: ${reason}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return out;
}

/** Every failed test, with the first line of its error: the summary is what a CI log's tail shows. */
function failures(kind, report) {
  const firstLine = (text) => String(text ?? 'no message').replace(/\u001b\[[0-9;]*m/g, '').trim().split('\n')[0].slice(0, 300);
  const out = [];
  if (kind === 'vitest') {
    for (const f of report.testResults ?? []) {
      const file = relative(process.cwd(), f.name);
      const failed = (f.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of failed) out.push(`${file} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
      if (f.status === 'failed' && failed.length === 0) out.push(`${file}: ${firstLine(f.message)}`);
    }
    return out;
  }
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'unexpected') continue;
        const error = t.results?.at(-1)?.error?.message;
        out.push(`${spec.file} > ${spec.title}: ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  for (const e of report.errors ?? []) out.push(`playwright error: ${firstLine(e.message)}`);
  return out;
}

for (const file of process.argv.slice(2)) {
  if (file.includes('differential')) {
    // Its tests are counted in vitest's report; a missing report means the suite did not run to the end.
    if (existsSync(file)) console.log(JSON.parse(readFileSync(file, 'utf8')).line);
    else {
      console.log(`${file}: no report`);
      totals.failed += 1;
    }
    continue;
  }
  const kind = Object.keys(readers).find((k) => file.includes(k));
  if (!existsSync(file) || !kind) {
    console.log(`${file}: no report`);
    totals.failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const counts = readers[kind](report);
  if (kind === 'playwright') for (const skip of playwrightSkips(report)) console.log(`skipped: ${skip}`);
  for (const failure of failures(kind, report)) console.log(`failed: ${failure}`);
  console.log(`${kind}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  for (const k of Object.keys(totals)) totals[k] += counts[k];
}
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
