/**
 * The server table: the embedded TypeScript server, presets detected from a temporary PATH and
 * a workspace's node_modules/.bin (fake executables; nothing is run), and `--servers` overrides.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  detectServers,
  findExecutable,
  isEmptyRustupProxy,
  loadServerOverrides,
  mergeEntry,
  resolveServers,
} from '../../src/cli/default-servers.ts';
import { SERVER_PRESETS } from '../../src/cli/server-presets.ts';

const tmp = mkdtempSync(join(tmpdir(), 'dsh-lsp-cli-servers-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function fakeBin(dir: string, name: string, executable = true): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, executable ? 0o755 : 0o644);
  return path;
}

const binA = join(tmp, 'bin-a');
const binB = join(tmp, 'bin-b');
const workspace = join(tmp, 'ws');
const localBin = join(workspace, 'node_modules', '.bin');
const pyright = fakeBin(binA, 'pyright-langserver');
fakeBin(binA, 'pylsp');
const docker = fakeBin(binB, 'docker-langserver');
fakeBin(binB, 'gopls', false);
const localYaml = fakeBin(localBin, 'yaml-language-server');
fakeBin(binB, 'yaml-language-server');
const PATH = [binA, 'relative/dir', '', binB].join(':');
const where = { workspace, path: PATH, platform: 'linux' as const };

describe('findExecutable', () => {
  it('finds executables on PATH and in the workspace, the workspace first', () => {
    assert.equal(findExecutable('pyright-langserver', where), pyright);
    assert.equal(findExecutable('docker-langserver', where), docker);
    assert.equal(findExecutable('yaml-language-server', where), localYaml);
  });

  it('ignores non-executable files, relative PATH entries and missing names', () => {
    assert.equal(findExecutable('gopls', where), undefined);
    assert.equal(findExecutable('clangd', where), undefined);
    assert.equal(findExecutable('pyright-langserver', { workspace, path: 'relative/dir' }), undefined);
  });
});

describe('rustup proxies', () => {
  const cargoBin = join(tmp, 'cargo-bin');
  const rustup = fakeBin(cargoBin, 'rustup');
  symlinkSync(rustup, join(cargoBin, 'rust-analyzer'));
  const real = fakeBin(join(tmp, 'usr-bin'), 'rust-analyzer');
  const rustupHome = join(tmp, 'rustup-home');
  mkdirSync(join(rustupHome, 'toolchains', 'stable', 'bin'), { recursive: true });
  const path = [cargoBin, join(tmp, 'usr-bin')].join(':');

  it('skips a proxy no toolchain backs, finding the real binary later on PATH', () => {
    const options = { workspace, path, platform: 'linux' as const, rustupHome };
    assert.equal(isEmptyRustupProxy(join(cargoBin, 'rust-analyzer'), 'rust-analyzer', options), true);
    assert.equal(findExecutable('rust-analyzer', options), real);
    assert.equal(isEmptyRustupProxy(real, 'rust-analyzer', options), false);
  });

  it('keeps a proxy whose toolchain has the component', () => {
    fakeBin(join(rustupHome, 'toolchains', 'stable', 'bin'), 'rust-analyzer');
    assert.equal(findExecutable('rust-analyzer', { workspace, path, platform: 'linux', rustupHome }), join(cargoBin, 'rust-analyzer'));
  });
});

describe('detectServers', () => {
  it('adds one preset per group, the first installed', () => {
    const found = detectServers(where);
    assert.deepEqual(Object.keys(found).sort(), ['dockerfile', 'pyright', 'yaml']);
    assert.equal(found['pyright']?.command, pyright);
    assert.deepEqual(found['pyright']?.args, ['--stdio']);
    assert.equal(found['pyright']?.extensionToLanguage?.['.py'], 'python');
    assert.equal(found['yaml']?.command, localYaml);
  });

  it('a dropped preset lets the next installed one of its group in', () => {
    const found = detectServers(where, { pyright: null });
    assert.ok(!('pyright' in found));
    assert.ok('pylsp' in found);
  });

  it("a user's own server for a group stops detection for that group", () => {
    const found = detectServers(where, { basedpyright: { command: '/opt/bp' } });
    assert.ok(!('pyright' in found) && !('pylsp' in found));
  });

  it('every preset has an id, executables and routing', () => {
    const ids = new Set<string>();
    for (const preset of SERVER_PRESETS) {
      assert.ok(!ids.has(preset.id), `unique id ${preset.id}`);
      ids.add(preset.id);
      assert.ok(preset.executables.length > 0);
      const routes = Object.keys(preset.entry.extensionToLanguage ?? {}).length + Object.keys(preset.entry.fileGlobs ?? {}).length;
      assert.ok(routes > 0, `${preset.id} routes some files`);
      for (const ext of Object.keys(preset.entry.extensionToLanguage ?? {})) assert.match(ext, /^\.[^/]+$/);
    }
  });
});

describe('resolveServers', () => {
  it('always has the embedded TypeScript server, run by this Node with the pinned tsserver', () => {
    const { servers, detected } = resolveServers({ workspace: join(tmp, 'no-such-workspace'), path: '' });
    assert.deepEqual(Object.keys(servers), ['typescript']);
    assert.deepEqual(detected, []);
    const ts = servers['typescript'];
    assert.ok(ts);
    assert.equal(ts.command, process.execPath);
    assert.match(ts.args[0] ?? '', /typescript-language-server[\\/]lib[\\/]cli\.mjs$/);
    assert.equal(ts.args[1], '--stdio');
    for (const ext of ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.d.ts']) {
      assert.ok(ext in ts.extensionToLanguage, ext);
    }
    assert.deepEqual(ts.rootMarkers, ['tsconfig.json', 'jsconfig.json', 'package.json']);
    const init = ts.initializationOptions as { disableAutomaticTypingAcquisition: boolean; tsserver: { useSyntaxServer: string; path: string } };
    assert.equal(init.disableAutomaticTypingAcquisition, true);
    assert.equal(init.tsserver.useSyntaxServer, 'never');
    assert.match(init.tsserver.path, /typescript[\\/]lib[\\/]tsserver\.js$/);
    assert.equal(ts.startupTimeoutMs, 30_000, 'schema defaults are filled');
  });

  it('merges overrides per id: settings bags deep, other fields replaced, null drops', () => {
    const { servers } = resolveServers(where, {
      typescript: { initializationOptions: { preferences: { quoteStyle: 'single' } } },
      pyright: { args: ['--stdio', '--verbose'], configuration: { python: { analysis: { typeCheckingMode: 'strict' } } } },
      dockerfile: null,
      ruff: { command: '/opt/ruff', args: ['server'], extensionToLanguage: { '.py': 'python' } },
      gopls: { env: { GOPROXY: 'off' } },
    });
    assert.deepEqual(Object.keys(servers).sort(), ['pyright', 'ruff', 'typescript', 'yaml']);
    const tsInit = servers['typescript']?.initializationOptions as Record<string, any>;
    assert.equal(tsInit['tsserver'].useSyntaxServer, 'never');
    assert.equal(tsInit['preferences'].quoteStyle, 'single');
    assert.deepEqual(servers['pyright']?.args, ['--stdio', '--verbose']);
    const configuration = servers['pyright']?.configuration as Record<string, any>;
    const analysis = configuration['python'].analysis;
    assert.equal(analysis.typeCheckingMode, 'strict');
    assert.equal(analysis.autoSearchPaths, true);
    assert.equal(servers['ruff']?.command, '/opt/ruff');
  });

  it('a command for a preset that was not found installed inherits the rest of the preset', () => {
    const own = fakeBin(join(tmp, 'elsewhere'), 'pyright-langserver');
    const { servers, detected } = resolveServers({ workspace: join(tmp, 'no-such-workspace'), path: '' }, { pyright: { command: own } });
    assert.deepEqual(detected, []);
    const entry = servers['pyright'];
    assert.ok(entry);
    assert.equal(entry.command, own);
    assert.deepEqual(entry.args, ['--stdio']);
    assert.equal(entry.extensionToLanguage['.py'], 'python');
    assert.ok(entry.rootMarkers.includes('pyproject.toml'));
    const analysis = (entry.configuration as Record<string, any>)['python'].analysis;
    assert.equal(analysis.diagnosticMode, 'openFilesOnly');
    const replaced = resolveServers({ workspace: join(tmp, 'no-such-workspace'), path: '' }, { pyright: { command: own, args: ['--stdio', '-v'] } });
    assert.deepEqual(replaced.servers['pyright']?.args, ['--stdio', '-v'], 'fields given still replace the preset');
  });

  it('names the server when an entry is invalid', () => {
    assert.throws(() => resolveServers(where, { mine: { command: '/x', args: 'nope' as never } }), /server "mine"/);
  });

  it('mergeEntry replaces arrays and routing tables', () => {
    const merged = mergeEntry({ args: ['a'], extensionToLanguage: { '.a': 'a' } }, { args: ['b'], extensionToLanguage: { '.b': 'b' } });
    assert.deepEqual(merged, { args: ['b'], extensionToLanguage: { '.b': 'b' } });
  });
});

describe('loadServerOverrides', () => {
  it('reads YAML and JSON, with or without a `servers` wrapper; relative commands resolve from the file', () => {
    const yml = join(tmp, 'servers.yml');
    writeFileSync(yml, 'pyright: null\nmine:\n  command: ./bin/mine\n  args: [--stdio]\nbare:\n  command: mine-ls\n');
    const y = loadServerOverrides(yml);
    assert.equal(y['pyright'], null);
    assert.equal(y['mine']?.command, join(tmp, 'bin', 'mine'));
    assert.equal(y['bare']?.command, 'mine-ls');
    const json = join(tmp, 'servers.json');
    writeFileSync(json, JSON.stringify({ servers: { yaml: false, x: { command: '/x' } } }));
    assert.deepEqual(loadServerOverrides(json), { yaml: null, x: { command: '/x' } });
  });

  it('rejects unreadable files and malformed tables, naming the file', () => {
    assert.throws(() => loadServerOverrides(join(tmp, 'missing.yml')), /cannot read servers file .*missing\.yml/);
    const bad = join(tmp, 'bad.yml');
    writeFileSync(bad, '- a\n- b\n');
    assert.throws(() => loadServerOverrides(bad), /must map server ids to entries/);
    writeFileSync(bad, 'x: 3\n');
    assert.throws(() => loadServerOverrides(bad), /"x" must be an entry object or null/);
  });
});

describe('examples/servers.example.yml', () => {
  it('loads and validates', () => {
    const example = join(import.meta.dirname, '..', '..', 'examples', 'servers.example.yml');
    const { servers } = resolveServers(where, loadServerOverrides(example));
    assert.deepEqual(Object.keys(servers).sort(), ['dockerfile', 'pyright', 'ruff', 'typescript', 'yaml']);
    assert.deepEqual(servers['ruff']?.args, ['server']);
  });
});
