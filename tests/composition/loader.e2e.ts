/**
 * REAL composition (harness-notes §3.4, variant C): `fixtures/cordis.yml` booted through the
 * cordis Loader in-process, as `@deepseek-ai/cordis/bin.js` does. The yml mounts the BUILT package
 * by name (`dsh-lsp-actions`, resolved by Node from the fixture directory: package self-reference
 * → `exports` → `lib/index.js`) next to the real harness services and the agent spine; the driver
 * row runs `lsp_diagnostics` on a real type error through `ctx.tools.execute` with a live agent.
 * Then the composition is disposed: no tool may remain and no language-server process may survive.
 *
 * Needs `npm run build` first (the test refuses a missing or stale `lib/`).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { findPackageJSON } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bootComposition, FIBER_ACTIVE, importFrom } from '../support/loader-boot.ts';
import { driverRuns, LSP_TOOL_NAMES } from './fixtures/driver.ts';
import { commandLine, processTree, survivors } from './fixtures/processes.ts';
import { createTsWorkspace, TYPE_ERROR_LINE } from './fixtures/workspace.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const YML = join(FIXTURES, 'cordis.yml');
const BUILT_ENTRY = join(REPO, 'lib', 'index.js');
/** Default `servers.*.shutdownTimeoutMs`: an orderly stop of every server finishes well inside it. */
const SERVER_SHUTDOWN_TIMEOUT_MS = 3_000;
/** Upper bound for disposing the whole composition. */
const DISPOSE_LIMIT_MS = 30_000;

/** @returns newest modification time of any TypeScript source under `dir` */
function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

test('the package name resolves from the fixture directory to the built lib/index.js', async () => {
  assert.equal(findPackageJSON('dsh-lsp-actions', pathToFileURL(YML).href), join(REPO, 'package.json'));
  const viaName = await importFrom('dsh-lsp-actions', pathToFileURL(FIXTURES).href);
  const viaPath: unknown = await import(pathToFileURL(BUILT_ENTRY).href);
  assert.equal(viaName, viaPath, 'the Loader will get the module at lib/index.js');
});

test('cordis.yml through the Loader: every row active, lsp_diagnostics answers a real type error, dispose leaves no tool and no process', { timeout: 240_000 }, async (t) => {
  assert.ok(statSync(BUILT_ENTRY, { throwIfNoEntry: false }), 'lib/index.js is missing: run `npm run build`');
  assert.ok(
    statSync(BUILT_ENTRY).mtimeMs >= newestSourceMtime(join(REPO, 'src')),
    'lib/ is older than src/: run `npm run build` so the yml mounts the current code',
  );
  const built = (await import(pathToFileURL(BUILT_ENTRY).href)) as { apply: unknown; name: unknown };

  const ws = createTsWorkspace('lsp-actions-loader-');
  t.after(() => ws.remove());
  process.env.LSP_ACTIONS_E2E_WORKSPACE = ws.root;
  const ymlBefore = readFileSync(YML, 'utf8');

  const started = Date.now();
  const boot = await bootComposition(YML, { timeoutMs: 120_000 });
  let serverTree: number[] = [];
  let disposeMs = Number.NaN;
  let tools: typeof boot.ctx.tools | undefined;
  try {
    t.diagnostic(`booted in ${Date.now() - started} ms (${boot.importerShim ? 'test importer' : 'Node internal loader'})`);

    // Every row loaded and is active, including the product row mounted by name.
    const entries = boot.entries();
    const inactive = entries.filter((entry) => entry.disabled || entry.state !== FIBER_ACTIVE);
    assert.deepEqual(inactive, [], 'every row loaded and activated');
    const rows = entries.map((entry) => entry.name);
    for (const row of ['dsh-lsp-actions', '@deepseek-ai/dsh-fs-sandbox', '@deepseek-ai/dsh-agent-loop', './driver.ts']) {
      assert.ok(rows.includes(row), `row ${row} is part of the composition`);
    }
    const productEntry = [...boot.loader.entries()].find((entry) => entry.options.name === 'dsh-lsp-actions');
    assert.equal(productEntry?.fiber?.runtime?.callback, built.apply, 'the mounted plugin is the built lib/index.js');
    assert.equal(built.name, 'dsh-lsp-actions');

    // The driver's run: tools present, a real diagnostics answer.
    const run = driverRuns.get(ws.root);
    assert.ok(run, 'the driver row started');
    const report = await run;
    for (const tool of LSP_TOOL_NAMES) assert.ok(report.toolNames.includes(tool), `${tool} registered`);
    const lspTools = report.toolNames.filter((name) => name.startsWith('lsp_'));
    assert.deepEqual([...lspTools].sort(), [...LSP_TOOL_NAMES].sort(), 'exactly the action and navigation tools, nothing unlisted');
    assert.match(report.diagnostics.text, /Type 'number' is not assignable to type 'string'/);
    assert.match(report.diagnostics.text, new RegExp(`main\\.ts:${TYPE_ERROR_LINE}:\\d+`), 'one-based path:line:col');
    t.diagnostic(`lsp_diagnostics as the model sees it:\n${report.diagnostics.text}`);

    assert.ok(report.serverPids.length > 0, 'a language server was live after the call');
    serverTree = report.serverPids.flatMap((pid) => processTree(pid));
    assert.ok(serverTree.length >= report.serverPids.length, 'server processes are running');
    t.diagnostic(`server processes: ${serverTree.map((pid) => `${pid} ${commandLine(pid).slice(0, 120)}`).join(' | ')}`);
    tools = boot.ctx.tools;
  } finally {
    // A ref'd guard timer: a disposal stuck on an unref'd timer fails here, readably, instead of
    // the event loop running dry under the test.
    const disposing = Date.now();
    let guard: NodeJS.Timeout | undefined;
    await Promise.race([
      boot.dispose(),
      new Promise<never>((_, reject) => {
        guard = setTimeout(() => reject(new Error(`disposing the composition did not finish within ${DISPOSE_LIMIT_MS} ms`)), DISPOSE_LIMIT_MS);
      }),
    ]).finally(() => clearTimeout(guard));
    disposeMs = Date.now() - disposing;
  }

  // After dispose: no tool is left registered, no server process survives, the config was not rewritten.
  t.diagnostic(`composition disposed in ${disposeMs} ms`);
  assert.ok(
    disposeMs < SERVER_SHUTDOWN_TIMEOUT_MS,
    `disposal took ${disposeMs} ms, i.e. it waited out the server shutdown timeout (${SERVER_SHUTDOWN_TIMEOUT_MS} ms) instead of an orderly stop`,
  );
  assert.ok(tools, 'the tools service was reachable');
  const left = tools.schemas().map((schema) => schema.name);
  assert.deepEqual(left.filter((name) => name.startsWith('lsp_')), [], 'no lsp_* tool remains');
  assert.ok(boot.entries().every((entry) => entry.state !== FIBER_ACTIVE), 'no row is active after dispose');
  const alive = await survivors(serverTree, 5_000);
  assert.deepEqual(
    alive.map((pid) => `${pid} ${commandLine(pid)}`),
    [],
    'every language-server process (tsls and its tsserver) is gone',
  );
  assert.equal(readFileSync(YML, 'utf8'), ymlBefore, 'the Loader did not write the fixture back');
});
