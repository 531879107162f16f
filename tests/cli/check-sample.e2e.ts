/**
 * `dsh-lsp-actions check` end to end, as a user runs it: the built executable
 * (`lib/cli/main.js`, after `npm run build`) on the shipped sample project, with the embedded
 * typescript-language-server — real server, real harness composition. Output lines, the JSON
 * and SARIF shapes, and exit codes 1 (errors), 0 (a fixed copy) and 2 (usage / setup).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO, spawnCli } from './cli-harness.ts';

const MAIN = join(REPO, 'lib', 'cli', 'main.js');
const SAMPLE = join(REPO, 'examples', 'sample');
const TIMEOUT = 180_000;
const EXPECTED_ERRORS = [
  "examples/sample/src/main.ts:6:10 error Cannot find name 'distance'. [typescript 2304]",
  "examples/sample/src/report.ts:6:9 error Type 'number' is not assignable to type 'string'. [typescript 2322]",
  "examples/sample/src/report.ts:7:23 error Cannot find name 'pointt'. Did you mean 'point'? [typescript 2552]",
];

// Only the Node that runs the tests on PATH: no preset servers found by accident.
const env = { ...process.env, PATH: join(process.execPath, '..') };
// A generous wait for `check` runs: the machine is shared and loaded; a pending result would fail the comparison.
const run = (argv: string[], cwd = REPO) =>
  spawnCli(MAIN, argv[0] === 'check' ? ['check', '--wait-ms', '150000', ...argv.slice(1)] : argv, { cwd, env, timeoutMs: TIMEOUT });

let fixed = '';
before(() => {
  assert.ok(existsSync(MAIN), 'run `npm run build` first: lib/cli/main.js is missing');
  fixed = mkdtempSync(join(tmpdir(), 'dsh-lsp-cli-sample-'));
  cpSync(SAMPLE, fixed, { recursive: true });
  writeFileSync(
    join(fixed, 'src', 'report.ts'),
    "import type { Point } from './geometry.js';\n\nexport function describe(point: Point): string {\n  return `${point.x}, ${point.y}`;\n}\n",
  );
  writeFileSync(
    join(fixed, 'src', 'main.ts'),
    "import { distance } from './geometry.js';\n\nexport function hypotenuse(): number {\n  return distance({ x: 0, y: 0 }, { x: 3, y: 4 });\n}\n",
  );
});
after(() => {
  if (fixed) rmSync(fixed, { recursive: true, force: true });
});

describe('check examples/sample (embedded typescript-language-server)', { timeout: TIMEOUT * 4 }, () => {
  it('prints the known errors like a compiler and exits 1', async () => {
    const r = await run(['check', 'examples/sample']);
    assert.equal(r.code, 1, r.stderr);
    // the related location of the third error ("declared here") follows it, indented, as tsc prints it
    assert.deepEqual(r.stdout.trimEnd().split('\n'), [
      ...EXPECTED_ERRORS,
      "    examples/sample/src/report.ts:5:26 note 'point' is declared here.",
      '3 errors, 0 warnings in 2 files (3 files checked)',
    ]);
  });

  it('--format json: every file fresh, the errors one-based with their codes', async () => {
    const r = await run(['check', 'examples/sample', '--format', 'json']);
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout) as {
      outcome: string;
      summary: { files: number; errors: number; notFresh: { total: number } };
      files: Array<{ path: string; state: string; diagnostics: Array<{ line: number; column: number; code: unknown; severity: string }> }>;
    };
    assert.equal(doc.outcome, 'errors');
    assert.deepEqual([doc.summary.files, doc.summary.errors, doc.summary.notFresh.total], [3, 3, 0]);
    assert.deepEqual(
      doc.files.map((f) => [f.path, f.state, f.diagnostics.map((d) => `${d.line}:${d.column} ${d.severity} ${String(d.code)}`)]),
      [
        ['examples/sample/src/geometry.ts', 'fresh', []],
        ['examples/sample/src/main.ts', 'fresh', ['6:10 error 2304']],
        ['examples/sample/src/report.ts', 'fresh', ['6:9 error 2322', '7:23 error 2552']],
      ],
    );
  });

  it('--format sarif: SARIF 2.1.0 with rules, workspace-relative locations and regions', async () => {
    const r = await run(['check', 'examples/sample', '--format', 'sarif']);
    assert.equal(r.code, 1, r.stderr);
    const log = JSON.parse(r.stdout) as Record<string, any>;
    assert.equal(log.version, '2.1.0');
    assert.match(log.$schema, /sarif-2\.1\.0/);
    const runRecord = log.runs[0];
    assert.equal(runRecord.tool.driver.name, 'dsh-lsp-actions');
    assert.deepEqual(runRecord.tool.driver.rules.map((rule: { id: string }) => rule.id).sort(), ['typescript/2304', 'typescript/2322', 'typescript/2552']);
    assert.equal(runRecord.invocations[0].executionSuccessful, true);
    const results = runRecord.results.map((res: Record<string, any>) => {
      const loc = res.locations[0].physicalLocation;
      return `${res.ruleId} ${res.level} ${loc.artifactLocation.uriBaseId} ${loc.artifactLocation.uri}:${loc.region.startLine}:${loc.region.startColumn}`;
    });
    assert.deepEqual(results, [
      'typescript/2304 error %SRCROOT% examples/sample/src/main.ts:6:10',
      'typescript/2322 error %SRCROOT% examples/sample/src/report.ts:6:9',
      'typescript/2552 error %SRCROOT% examples/sample/src/report.ts:7:23',
    ]);
    assert.equal(runRecord.originalUriBaseIds['%SRCROOT%'].uri, `file://${REPO}/`);
  });

  it('exits 0 on a fixed copy (workspace = the copy)', async () => {
    const r = await run(['check'], fixed);
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.stdout, '0 errors, 0 warnings in 0 files (3 files checked)\n');
  });

  it('exits 2 on usage and setup errors', async () => {
    const usage = await run(['check', 'examples/sample', '--format', 'xml']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--format must be one of text, json, sarif/);
    const missing = await run(['check', 'examples/nope']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no such file or directory: examples\/nope/);
    const unhandled = await run(['check', 'examples/sample/README.md']);
    assert.equal(unhandled.code, 2);
    assert.match(unhandled.stderr, /nothing to check: none of the 1 file under examples\/sample\/README\.md is of a kind a language server here checks/);
  });

  it('refuses an old Node with a clear message and exit 2', (t) => {
    // npm scripts put the project's Node 22 first on PATH; look further for an older one
    // (these machines ship Node 20 as /usr/bin/node).
    const candidates = [...(process.env['PATH'] ?? '').split(delimiter).map((dir) => join(dir, 'node')), '/usr/bin/node', '/usr/local/bin/node'];
    const old = candidates.find((bin) => {
      const probe = spawnSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8' });
      const [major = 0, minor = 0] = (probe.stdout ?? '').trim().split('.').map(Number);
      return probe.status === 0 && (major < 22 || (major === 22 && minor < 19));
    });
    if (old === undefined) {
      t.skip('no Node older than 22.19 on this machine');
      return;
    }
    const r = spawnSync(old, [MAIN, 'check', 'examples/sample'], { cwd: REPO, encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /needs Node 22\.19 or newer; this is Node /);
  });
});
