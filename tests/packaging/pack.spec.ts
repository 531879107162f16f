/**
 * Packaging: what `npm pack` would publish, and whether that tarball is a DSH bundle that
 * `dsh plugin --profile NAME add ./dsh-lsp-actions-X.tgz` can install (harness-notes §6;
 * docs/research/dsh-profile-install.md records a real install).
 *
 * Fast and offline: one `npm pack --dry-run --json --ignore-scripts` (no build, no registry, no
 * dsh). It inspects the `lib/` that `npm run build` produced and refuses a missing one.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, posix } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

interface Manifest {
  name: string;
  version: string;
  license?: string;
  main?: string;
  types?: string;
  exports?: Record<string, unknown>;
  bin?: Record<string, string>;
  files?: string[];
  engines?: Record<string, string>;
  dsh?: { bundle?: { patch?: string } };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

interface PackEntry {
  path: string;
  size: number;
  mode: number;
}

const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Manifest;

/** The harness release line the plugin is built against (harness-notes §1). */
const DSH_RANGE = '^0.1.0-rc.8';

/** Files a working bundle cannot do without. */
const REQUIRED = ['lib/index.js', 'lib/index.d.ts', 'lib/cli/main.js', 'cordis.patch.yml', 'README.md', 'LICENSE', 'package.json'];

/** Top-level folders that must never be published. */
const FORBIDDEN_DIRS = ['tests/', 'src/', 'bench/', 'node_modules/'];

/** @returns a manifest path (`./lib/x.js`, `lib/x.js`) as a tarball-relative path */
function normalise(path: string): string {
  return posix.normalize(path.replace(/^\.\//, ''));
}

/** @returns every string leaf of a (possibly conditional) `exports` value */
function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(exportTargets);
  return [];
}

/** @returns the package a bare import specifier names (`@scope/pkg/sub` → `@scope/pkg`) */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** @returns whether a specifier names a Node built-in */
function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(packageOf(specifier));
}

/** A bare module specifier: `node:x`, `pkg`, `@scope/pkg`, each with an optional subpath. */
const MODULE_NAME = /^(?:node:)?(?:@[\w.-]+\/)?\w[\w.-]*(?:\/\S*)?$/;

/** @returns bare specifiers a compiled module imports, re-exports or resolves */
function bareSpecifiers(source: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire(?:\.resolve)?\(\s*['"]([^'"]+)['"]\s*\)/g,
    // Package names held in strings and resolved later (composition rows, import.meta.resolve).
    /['"](@deepseek-ai\/[a-z0-9-]+)(?:\/[^'"]*)?['"]/g,
  ];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) {
      const specifier = match[1];
      // a keyword list such as `'import', 'in'` is not a specifier: keep only what names a module
      if (specifier && MODULE_NAME.test(specifier)) found.add(specifier);
    }
  }
  return [...found];
}

/** @returns the major version an engines alternative starts at (`^22.19.0` → 22, `>=24` → 24) */
function lowerMajor(alternative: string): number {
  const match = /(\d+)/.exec(alternative);
  return match ? Number(match[1]) : Number.NaN;
}

let packed: Set<string>;
let entries: PackEntry[];

before(() => {
  assert.ok(
    existsSync(join(REPO, 'lib', 'index.js')) && existsSync(join(REPO, 'lib', 'cli', 'main.js')),
    'lib/ is missing or incomplete: run `npm run build` before the packaging tests',
  );
  // --ignore-scripts: `prepare` would rebuild lib/ (slow, and a write under other running tests).
  const result = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, npm_config_loglevel: 'error', npm_config_update_notifier: 'false' },
  });
  assert.equal(result.error, undefined, `could not run npm: ${String(result.error)}`);
  assert.equal(result.status, 0, `npm pack --dry-run failed (status ${result.status}):\n${result.stderr}`);
  const report = JSON.parse(result.stdout) as { name: string; files: PackEntry[] }[];
  assert.equal(report.length, 1, 'npm pack reports exactly one package');
  const [only] = report;
  assert.ok(only);
  assert.equal(only.name, manifest.name);
  entries = only.files;
  packed = new Set(entries.map((entry) => entry.path));
});

describe('npm pack contents', () => {
  it('contains the entry points, the bundle patch, the README, the LICENSE and the manifest', () => {
    const missing = REQUIRED.filter((path) => !packed.has(path));
    assert.deepEqual(missing, [], `missing from the tarball: ${missing.join(', ')}`);
  });

  it('contains no sources, tests, benchmarks or node_modules', () => {
    const leaked = [...packed].filter((path) => FORBIDDEN_DIRS.some((dir) => path.startsWith(dir) || path.includes(`/${dir}`)));
    assert.deepEqual(leaked, [], `must not be published: ${leaked.slice(0, 20).join(', ')}`);
  });

  it('ships only the build output plus the top-level files the manifest lists', () => {
    const allowedTop = new Set(['package.json', 'README.md', 'cordis.patch.yml', 'LICENSE', 'LICENSE.md']);
    const unexpected = [...packed].filter((path) => !path.startsWith('lib/') && !allowedTop.has(path));
    assert.deepEqual(unexpected, [], `unexpected files in the tarball: ${unexpected.join(', ')}`);
  });

  it('ships no stale build output (every lib/ module has a src/ counterpart)', () => {
    const orphans = [...packed].filter((path) => {
      const module = /^lib\/(.+?)(?:\.d\.ts|\.js)(?:\.map)?$/.exec(path);
      return module !== null && !existsSync(join(REPO, 'src', `${module[1]}.ts`));
    });
    assert.deepEqual(
      orphans,
      [],
      `lib/ holds output of deleted sources (npm pack would publish it); rebuild from a clean lib/: ${orphans.join(', ')}`,
    );
  });
});

describe('package.json as a DSH bundle', () => {
  it('points dsh.bundle.patch at a packed file', () => {
    const patch = manifest.dsh?.bundle?.patch;
    assert.equal(typeof patch, 'string', 'package.json needs "dsh": {"bundle": {"patch": "./cordis.patch.yml"}}');
    assert.ok(packed.has(normalise(patch as string)), `dsh.bundle.patch ${patch} is not in the tarball`);
  });

  it('points main, types and every exports target at packed files', () => {
    const targets = [manifest.main, manifest.types, ...exportTargets(manifest.exports)].filter((t): t is string => typeof t === 'string');
    assert.ok(targets.length >= 3, 'main, types and exports are declared');
    const missing = targets.map(normalise).filter((path) => !packed.has(path));
    assert.deepEqual(missing, [], `manifest targets not in the tarball: ${missing.join(', ')}`);
    assert.equal(normalise(exportTargets(manifest.exports?.['.'])[0] ?? ''), 'lib/index.d.ts', 'exports["."] lists types first');
  });

  it('has bin.dsh-lsp-actions → a packed file starting with a node shebang', () => {
    const bin = manifest.bin?.['dsh-lsp-actions'];
    assert.equal(typeof bin, 'string', 'package.json needs bin.dsh-lsp-actions');
    const path = normalise(bin as string);
    assert.ok(packed.has(path), `bin target ${bin} is not in the tarball`);
    const firstLine = readFileSync(join(REPO, path), 'utf8').split('\n', 1)[0];
    assert.equal(firstLine, '#!/usr/bin/env node', `${path} must start with the node shebang`);
  });

  it('declares engines.node for Node 22.19+ (no Node 20: the harness needs Promise.withResolvers)', () => {
    const range = manifest.engines?.node;
    assert.equal(typeof range, 'string', 'package.json needs engines.node');
    const alternatives = (range as string).split('||').map((part) => part.trim());
    assert.ok(alternatives.length > 0 && alternatives.every((alt) => lowerMajor(alt) >= 22), `engines.node ${range} admits a Node older than 22`);
  });

  it('takes the harness as peers: the @deepseek-ai/dsh-* family at ^0.1.0-rc.8, each pinned for development', () => {
    const peers = manifest.peerDependencies ?? {};
    const names = Object.keys(peers);
    for (const required of ['@deepseek-ai/cordis', '@deepseek-ai/dsh-tools', '@deepseek-ai/dsh-fs', '@deepseek-ai/dsh-subprocess']) {
      assert.ok(names.includes(required), `peerDependencies lacks ${required}`);
    }
    for (const name of names) {
      assert.ok(name.startsWith('@deepseek-ai/'), `peer ${name} is not a harness package`);
      const range = peers[name] as string;
      if (name.startsWith('@deepseek-ai/dsh-')) assert.equal(range, DSH_RANGE, `peer ${name}`);
      else assert.match(range, /^\^\d+\.\d+\.\d+$/, `peer ${name} is a caret range`);
      assert.equal(manifest.devDependencies?.[name], range.slice(1), `devDependencies pins ${name} to the peer's base version`);
    }
  });

  it('keeps harness services out of dependencies (one instance per installation)', () => {
    const ownHarness = Object.keys(manifest.dependencies ?? {}).filter((name) => /^@deepseek-ai\/(?:dsh-|cordis)/.test(name));
    assert.deepEqual(ownHarness, [], 'harness packages must be peers, not dependencies');
  });

  it('declares every package the packed lib/ imports or names', () => {
    const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const undeclared = new Map<string, string>();
    for (const entry of entries) {
      if (!entry.path.endsWith('.js')) continue;
      for (const specifier of bareSpecifiers(readFileSync(join(REPO, entry.path), 'utf8'))) {
        if (isBuiltin(specifier) || packageOf(specifier) === manifest.name) continue;
        if (!declared.has(packageOf(specifier))) undeclared.set(packageOf(specifier), entry.path);
      }
    }
    assert.deepEqual(
      [...undeclared].map(([pkg, file]) => `${pkg} (${file})`),
      [],
      'lib/ uses packages that are neither dependencies nor peers',
    );
  });
});

describe('cordis.patch.yml', () => {
  it('parses into one insert row naming this package', () => {
    const patch: unknown = parseYaml(readFileSync(join(REPO, 'cordis.patch.yml'), 'utf8'));
    assert.ok(Array.isArray(patch), 'the bundle patch is a YAML array of include patches');
    const rows = patch.flatMap((step: unknown) => {
      assert.ok(step && typeof step === 'object', 'each patch step is a mapping');
      const insert = (step as { insert?: unknown }).insert;
      return Array.isArray(insert) ? (insert as unknown[]) : [];
    });
    assert.equal(rows.length, 1, 'exactly one inserted row');
    const row = rows[0] as { id?: unknown; name?: unknown; config?: unknown };
    assert.equal(row.name, manifest.name, 'the row name is the package name (the Loader imports it by name)');
    assert.equal(row.id, 'lsp-actions', 'stable row id that user patches target');
    assert.ok(row.config !== null && typeof row.config === 'object' && !Array.isArray(row.config), 'config is a mapping');
  });

  it('names a module whose packed entry is a cordis plugin', async () => {
    const entry = normalise(exportTargets((manifest.exports?.['.'] as Record<string, unknown> | undefined)?.import)[0] ?? manifest.main ?? '');
    assert.ok(packed.has(entry), `${entry} is packed`);
    const plugin = (await import(pathToFileURL(join(REPO, entry)).href)) as Record<string, unknown>;
    assert.equal(typeof plugin.apply, 'function', 'exports apply');
    assert.equal(plugin.name, manifest.name, 'plugin name');
    assert.ok(Array.isArray(plugin.inject), 'exports inject');
    assert.equal(plugin.default, undefined, 'namespace plugin: no default export');
  });
});

describe('licence', () => {
  it('the package and the VS Code extension carry the MIT LICENSE their manifests declare, and the .vsix ships it', () => {
    const text = readFileSync(join(REPO, 'LICENSE'), 'utf8');
    assert.match(text, /^MIT License\n\nCopyright \(c\) 2026 the dsh-lsp-actions authors\n/);
    assert.equal(manifest.license, 'MIT');
    const extension = join(REPO, 'editors', 'vscode');
    assert.equal(readFileSync(join(extension, 'LICENSE'), 'utf8'), text);
    assert.equal((JSON.parse(readFileSync(join(extension, 'package.json'), 'utf8')) as { license?: string }).license, 'MIT');
    const vscodeignore = readFileSync(join(extension, '.vscodeignore'), 'utf8').split('\n');
    assert.ok(vscodeignore.includes('!LICENSE'), '.vscodeignore lets LICENSE into the .vsix');
  });
});
