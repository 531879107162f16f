/**
 * How much of `check`'s time is tsserver's own: the check-vs-tsc project checked three ways per
 * round, each a fresh process —
 *
 *   - `tsc --noEmit -p .` (the embedded TypeScript 5.9.3);
 *   - tsserver alone, spoken to over its own protocol with no typescript-language-server and no
 *     CLI: `open` one file, then `syntacticDiagnosticsSync` + `semanticDiagnosticsSync` for every
 *     file, all written at once (what `check` asks, minus the hint pass it skips by default);
 *   - `dsh-lsp-actions check .` (the built CLI).
 *
 * Wall time is from spawn to the last answer (tsserver) or to exit; the three report the same
 * errors or the run fails.
 *
 *   npm run build && node bench/tsserver-floor.ts [--files N] [--classes N] [--rounds N]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateCheckProject } from './check-project.ts';

const REPO = join(import.meta.dirname, '..');
const MAIN = join(REPO, 'lib', 'cli', 'main.js');
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const TSSERVER = join(REPO, 'node_modules', 'typescript', 'lib', 'tsserver.js');

const { values } = parseArgs({
  options: { files: { type: 'string', default: '300' }, classes: { type: 'string', default: '1' }, rounds: { type: 'string', default: '5' } },
});
const FILES = Number(values.files);
const CLASSES = Number(values.classes);
const ROUNDS = Number(values.rounds);

/** One tsserver protocol message from a Content-Length framed stream. */
function frames(onMessage: (message: Record<string, unknown>) => void): (chunk: Buffer) => void {
  let buffer = Buffer.alloc(0);
  return (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const header = buffer.indexOf('\r\n\r\n');
      if (header < 0) return;
      const length = Number(/Content-Length: (\d+)/.exec(buffer.subarray(0, header).toString('ascii'))?.[1]);
      if (buffer.length < header + 4 + length) return;
      onMessage(JSON.parse(buffer.subarray(header + 4, header + 4 + length).toString('utf8')) as Record<string, unknown>);
      buffer = buffer.subarray(header + 4 + length);
    }
  };
}

/** tsserver alone: wall from spawn to the last answer, and the error count it reported. */
async function tsserverAlone(root: string): Promise<{ wallMs: number; errors: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [TSSERVER, '--disableAutomaticTypingAcquisition'], { cwd: root, stdio: ['pipe', 'pipe', 'ignore'] });
  const pending = new Map<number, (message: Record<string, unknown>) => void>();
  child.stdout.on(
    'data',
    frames((message) => {
      const seq = message['request_seq'];
      if (message['type'] === 'response' && typeof seq === 'number') pending.get(seq)?.(message);
    }),
  );
  let seq = 0;
  const request = (command: string, args: unknown): Promise<Record<string, unknown>> =>
    new Promise((resolve) => {
      seq += 1;
      pending.set(seq, resolve);
      child.stdin.write(`${JSON.stringify({ seq, type: 'request', command, arguments: args })}\n`);
    });
  const files = readdirSync(join(root, 'src')).map((name) => join(root, 'src', name));
  seq += 1;
  child.stdin.write(`${JSON.stringify({ seq, type: 'request', command: 'open', arguments: { file: files[0], projectRootPath: root } })}\n`);
  const answers = await Promise.all(files.flatMap((file) => ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync'].map((command) => request(command, { file }))));
  const wallMs = performance.now() - started;
  child.kill();
  let errors = 0;
  for (const answer of answers) {
    if (answer['success'] !== true || !Array.isArray(answer['body'])) throw new Error(`tsserver: ${JSON.stringify(answer).slice(0, 300)}`);
    errors += (answer['body'] as Array<{ category?: string }>).filter((d) => d.category === 'error').length;
  }
  return { wallMs, errors };
}

function timed(argv: string[], cwd: string): { wallMs: number; stdout: string } {
  const started = performance.now();
  const result = spawnSync(process.execPath, argv, { cwd, encoding: 'utf8' });
  return { wallMs: performance.now() - started, stdout: result.stdout };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  if (!existsSync(MAIN)) throw new Error('run `npm run build` first: lib/cli/main.js is missing');
  const root = mkdtempSync(join(tmpdir(), 'dsh-lsp-bench-floor-'));
  const rows = { tsc: [] as number[], tsserver: [] as number[], check: [] as number[] };
  try {
    const expected = generateCheckProject(root, FILES, CLASSES).size;
    for (let round = 0; round < ROUNDS; round++) {
      const tsc = timed([TSC, '--noEmit', '-p', '.', '--pretty', 'false'], root);
      const alone = await tsserverAlone(root);
      const check = timed([MAIN, 'check', '.', '--no-progress'], root);
      const tscErrors = (tsc.stdout.match(/error TS/g) ?? []).length;
      const checkErrors = Number(/^(\d+) errors?,/m.exec(check.stdout)?.[1]);
      if (tscErrors !== expected || alone.errors !== expected || checkErrors !== expected) {
        throw new Error(`round ${round + 1}: errors differ (expected ${expected}): tsc ${tscErrors}, tsserver ${alone.errors}, check ${checkErrors}`);
      }
      rows.tsc.push(tsc.wallMs);
      rows.tsserver.push(alone.wallMs);
      rows.check.push(check.wallMs);
      process.stderr.write(`round ${round + 1}/${ROUNDS}: tsc ${tsc.wallMs.toFixed(0)} ms, tsserver alone ${alone.wallMs.toFixed(0)} ms, check ${check.wallMs.toFixed(0)} ms\n`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const base = median(rows.tsc);
  process.stdout.write(
    `${FILES} files × ${CLASSES} group(s), ${ROUNDS} rounds, medians: tsc ${base.toFixed(0)} ms; tsserver alone ${median(rows.tsserver).toFixed(0)} ms ` +
      `(${(median(rows.tsserver) / base).toFixed(2)}×); check ${median(rows.check).toFixed(0)} ms (${(median(rows.check) / base).toFixed(2)}×)\n`,
  );
}

await main();
