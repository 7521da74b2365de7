/**
 * `npm run bench`: runs each benchmark section in its own process (so one section's heap and
 * threads do not skew the next) and prints ONE JSON object: every section's figures and every
 * ratio next to its target. A measurement, not a test: nothing here asserts a time.
 *
 * BENCH=engine,http,ui,transfers picks sections (default: all, in that order). A section is a
 * script that prints one JSON object on stdout (progress on stderr); its `ratios` array, if any,
 * is gathered into the top-level `ratios` with the section's name in front.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SECTIONS: Record<string, string> = {
  engine: 'engine-bench.ts',
  http: 'http-bench.ts',
  ui: 'ui-bench.ts',
  transfers: 'transfers-bench.ts',
};

interface Ratio { name: string; value: number; target: string; note?: string }

function runSection(file: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(file, import.meta.url))], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`${file} exited with ${code}`));
      try {
        resolve(JSON.parse(out) as Record<string, unknown>);
      } catch {
        reject(new Error(`${file} printed no JSON object:\n${out.slice(0, 2000)}`));
      }
    });
  });
}

const wanted = (process.env.BENCH ?? Object.keys(SECTIONS).join(',')).split(',').map((s) => s.trim()).filter(Boolean);
const unknown = wanted.filter((s) => !SECTIONS[s]);
if (unknown.length) {
  process.stderr.write(`unknown bench section(s): ${unknown.join(', ')}; known: ${Object.keys(SECTIONS).join(', ')}\n`);
  process.exit(2);
}

const sections: Record<string, unknown> = {};
const ratios: Ratio[] = [];
const failures: Record<string, string> = {};
for (const name of wanted) {
  process.stderr.write(`[bench] section ${name}\n`);
  try {
    const result = await runSection(SECTIONS[name]!);
    sections[name] = result;
    for (const r of (result.ratios as Ratio[] | undefined) ?? []) ratios.push({ ...r, name: `${name}: ${r.name}` });
  } catch (err) {
    failures[name] = (err as Error).message;
  }
}
process.stdout.write(`${JSON.stringify({ ratios, sections, ...(Object.keys(failures).length ? { failures } : {}) }, null, 2)}\n`);
process.exitCode = Object.keys(failures).length ? 1 : 0;
