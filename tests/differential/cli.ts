// Runs the differential corpus outside vitest and prints every difference, listed or not:
//   npx tsx tests/differential/cli.ts [ROW-ID-PREFIX ...]
// It starts its own Swift and RGW (startReference), or uses running ones whose endpoints are in
// the JSON file DIFFERENTIAL_REFERENCES names ({"swift": …, "rgw": …}, as reference() returns them).
// DIFFERENTIAL_REPORT=FILE also writes the JSON report there.
import { readFileSync } from 'node:fs';
import { startReference, unavailableReason } from '../reference/servers.js';
import { CORPUS } from './corpus/index.js';
import { describeDiff } from './runner.js';
import { makeReport, PRIMARY, runCorpus, setUp, staleDeviations, writeReport } from './suite.js';

async function main(): Promise<void> {
  const prefixes = process.argv.slice(2);
  const stops: (() => Promise<void>)[] = [];
  let refs: Parameters<typeof setUp>[0];
  if (process.env.DIFFERENTIAL_REFERENCES) refs = JSON.parse(readFileSync(process.env.DIFFERENTIAL_REFERENCES, 'utf8')) as typeof refs;
  else {
    const start = async <K extends 'swift' | 'rgw'>(kind: K) => {
      const why = unavailableReason(kind);
      if (why) return why;
      const r = await startReference(kind);
      stops.push(r.stop);
      return r.endpoints;
    };
    refs = { swift: await start('swift'), rgw: await start('rgw') };
  }
  const run = await setUp(refs);
  try {
    const rows = prefixes.length ? CORPUS.filter((r) => prefixes.some((p) => r.id.startsWith(p))) : CORPUS;
    const results = await runCorpus(run, rows);
    for (const r of results) {
      for (const [ref, diffs] of Object.entries(r.refs)) {
        if (!diffs?.length) continue;
        console.log(`\n${r.row.id} vs ${ref}:`);
        // Second opinions are reported, never judged: only the reference of the row's API decides.
        const judged = ref === PRIMARY[r.row.api];
        for (const d of diffs) console.log(`  ${!judged ? '[second opinion]' : d.listedAs ? `[${d.listedAs}]` : '[UNLISTED]'} ${describeDiff(d)}`);
      }
      for (const [ref, why] of Object.entries(r.skipped)) console.log(`${r.row.id}: ${ref} skipped: ${why}`);
    }
    if (!prefixes.length) console.log(`\nno longer occurring: ${staleDeviations(results, run).join(', ') || 'none'}`);
    const report = makeReport(run, results);
    if (process.env.DIFFERENTIAL_REPORT) writeReport(process.env.DIFFERENTIAL_REPORT, report);
    console.log(`\n${report.line}`);
  } finally {
    await run.coffer.close();
    for (const stop of stops) await stop();
  }
}

await main();
