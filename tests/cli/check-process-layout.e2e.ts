/**
 * `check` on a TypeScript ≤ 6 project runs tsserver directly, through our bridge (decision
 * 0111): while it runs, its process tree holds tsserver (with the large-source guard and the
 * solution preload in its `NODE_OPTIONS`) and never typescript-language-server; and its errors
 * are exactly those of `tsc --noEmit -p .` on the same files (type errors, one with a related
 * location).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { processTree } from '../lsp/real-server-fixture.ts';
import { REPO } from './cli-harness.ts';

const MAIN = join(REPO, 'lib', 'cli', 'main.js');
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const TIMEOUT = 240_000;

const root = mkdtempSync(join(tmpdir(), 'dsh-lsp-layout-'));
after(() => rmSync(root, { recursive: true, force: true }));

const FILES: Record<string, string> = {
  'tsconfig.json': '{"compilerOptions":{"strict":true,"noEmit":true,"target":"es2022","module":"nodenext"},"include":["src"]}',
  'package.json': '{"type":"module"}',
  'src/a.ts': 'export const point: { x: number } = { x: "1" };\n',
  'src/b.ts': 'import { point } from "./a.js";\nexport const n: string = point.x;\n',
  'src/c.ts': 'export const q: number = Math.max(1, 2) + "";\n',
};
for (let i = 0; i < 30; i++) FILES[`src/m${i}.ts`] = `import { point } from "./a.js";\nexport const v${i} = point.x + ${i};\n`;
for (const [path, text] of Object.entries(FILES)) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** @returns each process's command line and environment, read while it lives */
function describeProcess(pid: number): { cmdline: string; env: string } | undefined {
  try {
    return { cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '), env: readFileSync(`/proc/${pid}/environ`, 'utf8').replaceAll('\0', '\n') };
  } catch {
    return undefined; // gone meanwhile
  }
}

describe('check runs tsserver without typescript-language-server', { timeout: TIMEOUT }, () => {
  it('its process tree while it runs, and its errors against tsc', { timeout: TIMEOUT }, async () => {
    assert.ok(existsSync(MAIN), 'run `npm run build` first');
    const child = spawn(process.execPath, [MAIN, 'check', '.', '--format', 'json', '--no-progress', '--wait-ms', '150000'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const seen = new Map<number, { cmdline: string; env: string }>();
    const sampler = setInterval(() => {
      void processTree(child.pid as number).then((pids) => {
        for (const pid of pids) if (!seen.has(pid)) {
          const found = describeProcess(pid);
          if (found !== undefined) seen.set(pid, found);
        }
      });
    }, 25);
    const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
    clearInterval(sampler);
    assert.equal(code, 1, stderr);
    const lines = [...seen.values()].map((p) => p.cmdline);
    const tsserver = [...seen.values()].find((p) => /tsserver\.js /.test(p.cmdline));
    assert.ok(tsserver !== undefined, `no tsserver seen in ${lines.join('\n')}`);
    assert.ok(!lines.some((line) => line.includes('typescript-language-server')), lines.join('\n'));
    assert.match(tsserver.env, /^NODE_OPTIONS=.*large-source-guard.*solution-references/m);
    assert.match(tsserver.env, /^DSH_LSP_SOLUTION_REFERENCES=/m);

    const tsc = spawnSync(process.execPath, [TSC, '--noEmit', '-p', '.', '--pretty', 'false'], { cwd: root, encoding: 'utf8' });
    const expected = [...tsc.stdout.matchAll(/^(.+?)\((\d+),(\d+)\): error TS(\d+):/gm)].map((m) => `${m[1]}:${m[2]}:${m[3]} ${m[4]}`).sort();
    const doc = JSON.parse(stdout) as { files: Array<{ path: string; state: string; diagnostics: Array<{ line: number; column: number; code: unknown; severity: string; related?: unknown[] }> }> };
    const errors = doc.files.flatMap((f) => f.diagnostics.filter((d) => d.severity === 'error').map((d) => `${f.path}:${d.line}:${d.column} ${String(d.code)}`)).sort();
    assert.equal(expected.length, 3, tsc.stdout);
    assert.deepEqual(errors, expected);
    assert.ok(doc.files.every((f) => f.state === 'fresh'));
    const related = doc.files.find((f) => f.path === 'src/a.ts')?.diagnostics[0]?.related;
    assert.ok(Array.isArray(related) && related.length === 1, JSON.stringify(doc.files.find((f) => f.path === 'src/a.ts')));
  });
});
