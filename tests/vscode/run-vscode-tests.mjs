// The VS Code extension in a real VS Code, offline (recipe: shared/vscode-runtime.md):
//   phase B — extension-host tests (editors/vscode/test/host) in code-server's bundled VS Code
//             server with the smoke-test driver, the extension loaded from its folder;
//   phase A — UI: the packed .vsix installed into code-server, the sample folder opened in headless
//             Chromium, the Problems panel and the quick-fix menu asserted on the DOM and saved as PNGs.
// After each phase the VS Code server is stopped and no backend or language-server process may be left.
// Usage: node tests/vscode/run-vscode-tests.mjs [host|ui|all]   (artifacts: $DSH_VSCODE_ARTIFACTS or .tmp/vscode-artifacts)
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { installRuntime } from '../../scripts/install-vscode-runtime.mjs';
import { driveUi } from './ui-driver.mjs';

const root = join(import.meta.dirname, '..', '..');
const extDir = join(root, 'editors', 'vscode');
const which = process.argv[2] ?? 'all';
const artifacts = process.env.DSH_VSCODE_ARTIFACTS ?? join(root, '.tmp', 'vscode-artifacts');

function sh(command, args, cwd) {
  console.log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status})`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitUp(url, ms = 120_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`not up: ${url}`);
}

/** A scratch state folder (short path: unix sockets live in it) and a workspace copy of the sample. */
function scratch() {
  const s = mkdtempSync('/tmp/dshvsc-');
  for (const d of ['home', 'ud/User', 'ext', 'ext-empty', 'tmp', 'out']) mkdirSync(join(s, d), { recursive: true });
  const ws = join(s, 'ws');
  cpSync(join(root, 'examples', 'sample'), ws, { recursive: true });
  writeFileSync(join(ws, 'src', 'messy.ts'), 'export   const  answer=42 ;\nexport function twice( n:number ){return n*2}\n');
  // The backend comes from the workspace's node_modules/.bin (the second step of the resolution order).
  mkdirSync(join(ws, 'node_modules', '.bin'), { recursive: true });
  const wrapper = join(ws, 'node_modules', '.bin', 'dsh-lsp-actions');
  writeFileSync(wrapper, `#!/bin/sh\nexec "${join(root, 'node_modules', '.bin', 'node')}" "${join(root, 'lib', 'cli', 'main.js')}" "$@"\n`);
  chmodSync(wrapper, 0o755);
  writeFileSync(
    join(s, 'ud', 'User', 'settings.json'),
    JSON.stringify({
      'workbench.startupEditor': 'none',
      'chat.disableAIFeatures': true,
      'telemetry.telemetryLevel': 'off',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'extensions.ignoreRecommendations': true,
      'update.mode': 'none',
      'workbench.enableExperiments': false,
      'workbench.tips.enabled': false,
      'security.workspace.trust.enabled': false,
      // VS Code's built-in TypeScript checks would add their own problems next to the backend's.
      'typescript.validate.enable': false,
      'javascript.validate.enable': false,
      'files.autoSave': 'off',
    }),
  );
  return { s, ws };
}

function stateEnv(s, rt) {
  return {
    ...process.env,
    PATH: `${join(rt.node24, '..')}:${process.env.PATH}`,
    HOME: join(s, 'home'),
    XDG_CONFIG_HOME: join(s, 'home', '.config'),
    XDG_DATA_HOME: join(s, 'home', '.local', 'share'),
    TMPDIR: join(s, 'tmp'),
    XDG_RUNTIME_DIR: join(s, 'tmp'),
    DSH_VSCODE_TEST_OUT: join(s, 'out'),
  };
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {}
}

/** Starts a server in its own process group; returns a stopper that ends the whole group. */
function startGroup(command, args, env, log) {
  const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (c) => (text += c));
  child.stderr.on('data', (c) => (text += c));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return async () => {
    signalGroup(child.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    signalGroup(child.pid, 'SIGKILL');
    writeFileSync(log, text);
  };
}

/** Processes still running whose command line names the workspace (the backend: serve --workspace <ws>). */
function processesFor(ws) {
  const found = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      found.push({ pid: Number(pid), pgrp, cmd });
    } catch {}
  }
  return (pgids) => found.filter((p) => p.cmd.includes(ws) || pgids.includes(p.pgrp));
}

/** After VS Code is gone, no backend or language server of this run may remain. */
async function assertNothingLeft(s, ws, phase) {
  const file = join(s, 'out', 'backend-pgids');
  const pgids = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : [];
  let left = [];
  for (let i = 0; i < 60; i++) {
    left = processesFor(ws)(pgids);
    if (left.length === 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  if (left.length > 0) {
    for (const p of left) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {}
    }
    throw new Error(`${phase}: processes left after VS Code closed:\n${left.map((p) => `  ${p.pid} ${p.cmd}`).join('\n')}`);
  }
  console.log(`${phase}: no backend or language-server process left (${pgids.length} backend process groups checked)`);
}

function launchChromium(chromium, rt, profile) {
  return chromium.launchPersistentContext(profile, {
    executablePath: rt.chromium,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

async function phaseHost(rt, chromium) {
  const { s, ws } = scratch();
  const port = await freePort();
  const stop = startGroup(
    rt.node24,
    [rt.vscodeServerMain, '--host', '127.0.0.1', '--port', String(port), '--without-connection-token', '--accept-server-license-terms', '--disable-telemetry',
      '--enable-smoke-test-driver', '--server-data-dir', join(s, 'ud'), '--user-data-dir', join(s, 'ud'), '--extensions-dir', join(s, 'ext-empty')],
    stateEnv(s, rt),
    join(artifacts, 'host-vscode-server.log'),
  );
  let code = 'not run';
  try {
    await waitUp(`http://127.0.0.1:${port}/version`);
    const ctx = await launchChromium(chromium, rt, join(s, 'chromium'));
    try {
      const page = ctx.pages()[0] ?? (await ctx.newPage());
      const authority = `127.0.0.1:${port}`;
      const payload = [
        ['extensionDevelopmentPath', `vscode-remote://${authority}${extDir}`],
        ['extensionTestsPath', `vscode-remote://${authority}${join(extDir, 'dist', 'test', 'host-tests.cjs')}`],
      ];
      let done;
      const exited = new Promise((r) => (done = r));
      await page.exposeFunction('codeAutomationLog', (_type, args) => console.log('[exthost]', ...(args ?? [])));
      await page.exposeFunction('codeAutomationExit', (c) => done(c));
      await page.goto(`http://${authority}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`, {
        waitUntil: 'domcontentloaded',
        timeout: 180_000,
      });
      code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout after 15 min'), 900_000))]);
    } finally {
      await ctx.close();
    }
  } finally {
    await stop();
    copyExtHostLog(s, 'host');
  }
  await assertNothingLeft(s, ws, 'extension-host tests');
  if (code !== 0) throw new Error(`extension-host tests failed (${code})`);
  rmSync(s, { recursive: true, force: true });
}

async function phaseUi(rt, chromium, vsix) {
  const { s, ws } = scratch();
  const env = stateEnv(s, rt);
  const csArgs = ['--user-data-dir', join(s, 'ud'), '--extensions-dir', join(s, 'ext')];
  const install = spawnSync(rt.codeServer, [...csArgs, '--install-extension', vsix], { env, encoding: 'utf8' });
  console.log(install.stdout.trim());
  if (install.status !== 0) throw new Error(`code-server --install-extension failed: ${install.stderr}`);
  const port = await freePort();
  const stop = startGroup(
    rt.codeServer,
    ['--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override', ...csArgs, ws],
    env,
    join(artifacts, 'ui-code-server.log'),
  );
  try {
    await waitUp(`http://127.0.0.1:${port}/healthz`);
    const ctx = await launchChromium(chromium, rt, join(s, 'chromium'));
    try {
      await driveUi({ page: ctx.pages()[0] ?? (await ctx.newPage()), base: `http://127.0.0.1:${port}`, ws, out: artifacts, pgidFile: join(s, 'out', 'backend-pgids') });
    } finally {
      await ctx.close();
    }
  } finally {
    await stop();
    copyExtHostLog(s, 'ui');
  }
  await assertNothingLeft(s, ws, 'UI test');
  rmSync(s, { recursive: true, force: true });
}

function copyExtHostLog(s, phase) {
  const logs = join(s, 'ud', 'logs');
  if (!existsSync(logs)) return;
  for (const entry of readdirSync(logs, { recursive: true })) {
    if (String(entry).endsWith('exthost.log')) cpSync(join(logs, String(entry)), join(artifacts, `${phase}-${String(entry).replaceAll('/', '_')}`));
  }
}

const rt = installRuntime();
if (!existsSync(join(root, 'lib', 'cli', 'main.js'))) sh('npm', ['run', 'build'], root);
if (!existsSync(join(extDir, 'node_modules', '.bin', 'vsce'))) sh('npm', ['ci', '--no-audit', '--no-fund'], extDir);
sh('npm', ['run', 'package'], extDir);
rmSync(artifacts, { recursive: true, force: true });
mkdirSync(artifacts, { recursive: true });
console.log(`VS Code test artifacts (screenshots, logs): ${artifacts}`);
const { chromium } = createRequire(join(rt.playwrightCore, 'package.json'))('playwright-core');
let failed = false;
for (const [name, phase] of [
  ['host', () => phaseHost(rt, chromium)],
  ['ui', () => phaseUi(rt, chromium, join(extDir, 'dist', 'dsh-lsp-actions-vscode.vsix'))],
]) {
  if (which !== 'all' && which !== name) continue;
  try {
    await phase();
    console.log(`ok - VS Code ${name} phase`);
  } catch (error) {
    failed = true;
    console.log(`not ok - VS Code ${name} phase\n${error.stack ?? error}`);
  }
}
console.log(`VS Code test artifacts (screenshots, logs): ${artifacts}`);
process.exit(failed ? 1 : 0);
