/**
 * From zero to a profile's agent using the tools, through the harness's own `dsh` CLI — the steps
 * of docs/plugin.md ("Install into a DSH profile"), in order:
 *   1. the CLI: pnpm, then `pnpm add @deepseek-ai/dsh@0.1.0-rc.8` with the cordis-plugin-hmr 1.0.16 pin;
 *   2. `npm pack` of this package;
 *   3. `dsh plugin --profile lsp add ./dsh-lsp-actions-<version>.tgz`;
 *   4. `dsh --profile lsp --dump-config` shows the bundle's row;
 *   5. the profile booted by `dsh --profile lsp` with no model key. A test-only row
 *      (fixtures/profile-driver.mjs, added with `--patch`) stands in for the model: it creates an
 *      agent whose cwd is a workspace with one type error and executes `lsp_diagnostics` through
 *      the profile's tool runtime, as the agent loop would for a model's tool call.
 * Needs `npm run build`, the npm registry (or a warm cache) on first run, and Linux /proc.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LSP_TOOL_NAMES } from '../../src/tools/register-lsp-tools.ts';
import { installDshCli, runTool, toolEnv, type DshCli } from './fixtures/dsh-cli.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DRIVER = fileURLToPath(new URL('./fixtures/profile-driver.mjs', import.meta.url));

interface DriverLine {
  step: string;
  tools?: string[];
  call?: number;
  isError?: boolean;
  text?: string;
  value?: { files?: Array<{ state?: string; diagnostics?: Array<{ code?: unknown }> }> };
  message?: string;
}

/** @returns command lines of live processes that mention `needle` (Linux /proc) */
function processesMentioning(needle: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(needle)) found.push(`${entry}: ${cmdline}`);
    } catch {
      // gone
    }
  }
  return found;
}

describe('a dsh profile with the packed bundle (dsh 0.1.0-rc.8)', { timeout: 900_000 }, () => {
  let cli: DshCli;
  let scratch: string;
  let tarball: string;
  const home = (): string => join(scratch, 'home');
  const dsh = (args: string[], cwd: string): ReturnType<typeof spawnSync> =>
    spawnSync('dsh', args, { cwd, env: { ...toolEnv(cli.path), DSH_HOME: home() }, encoding: 'utf8', timeout: 300_000 });

  before(() => {
    const built = join(REPO, 'lib', 'index.js');
    assert.ok(statSync(built, { throwIfNoEntry: false }), 'lib/index.js is missing: run `npm run build`');
    cli = installDshCli();
    scratch = realpathSync(mkdtempSync(join(tmpdir(), 'lsp-actions-dsh-profile-')));
    // --ignore-scripts: `prepare` would rebuild lib/ under other running tests.
    const packed = JSON.parse(runTool('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], REPO, toolEnv(cli.path))) as Array<{ filename: string }>;
    tarball = packed[0]?.filename ?? '';
    assert.match(tarball, /^dsh-lsp-actions-.+\.tgz$/);
  });

  after(() => {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  });

  it('installs with dsh plugin add, shows its row in --dump-config, and a profile agent gets fresh diagnostics from lsp_diagnostics', () => {
    const version = dsh(['--version'], scratch);
    assert.equal(version.status, 0, String(version.stderr));
    assert.match(String(version.stdout), /^0\.1\.0-rc\.8\b/);

    const add = dsh(['plugin', '--profile', 'lsp', 'add', `./${tarball}`], scratch);
    assert.equal(add.status, 0, `${String(add.stdout)}\n${String(add.stderr)}`);
    const manifest = JSON.parse(readFileSync(join(home(), 'profiles', 'lsp', 'package.json'), 'utf8')) as { dsh?: { profile?: { bundles?: string[] } } };
    assert.ok(manifest.dsh?.profile?.bundles?.includes('dsh-lsp-actions'), JSON.stringify(manifest));

    const dump = dsh(['--profile', 'lsp', '--dump-config'], scratch);
    assert.equal(dump.status, 0, String(dump.stderr));
    assert.match(String(dump.stdout), /# == dsh-lsp-actions\n- id: lsp-actions\n {2}name: dsh-lsp-actions\n {2}config: \{\}/);

    const ws = join(scratch, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'tsconfig.json'), '{"compilerOptions":{"strict":true,"module":"NodeNext","noEmit":true}}\n');
    writeFileSync(join(ws, 'bad.ts'), "export const count: number = 'not a number';\n");
    const patch = join(scratch, 'driver.yml');
    // A --patch names its plugin by absolute path (a patch does not change the profile folder).
    writeFileSync(patch, `- insert:\n    - id: profile-driver\n      name: ${JSON.stringify(DRIVER)}\n      config: { workspace: ${JSON.stringify(ws)}, file: bad.ts }\n`);
    const boot = dsh(['--profile', 'lsp', '--patch', patch], ws);
    const stderr = String(boot.stderr);
    assert.equal(boot.status, 0, stderr);
    const lines = stderr.split('\n').filter((line) => line.startsWith('DRIVER ')).map((line) => JSON.parse(line.slice(7)) as DriverLine);
    assert.equal(lines.find((l) => l.step === 'failed')?.message, undefined);

    const tools = lines.find((l) => l.step === 'tools')?.tools ?? [];
    for (const name of LSP_TOOL_NAMES) assert.ok(tools.includes(name), `${name} is in the profile's tool list (${tools.join(', ')})`);
    for (const name of ['read', 'write', 'edit']) assert.ok(tools.includes(name), `the profile's own ${name} tool is there too`);

    const calls = lines.filter((l) => l.step === 'lsp_diagnostics');
    assert.equal(calls.length, 2, stderr);
    for (const call of calls) {
      assert.equal(call.isError, false, call.text);
      assert.match(call.text ?? '', /^bad\.ts — 1 error \(fresh\)\nbad\.ts:1:14 error typescript\(2322\): Type 'string' is not assignable to type 'number'\.$/);
      assert.equal(call.value?.files?.[0]?.state, 'fresh');
    }
    assert.deepEqual(processesMentioning(scratch), [], 'no process of the profile is left');
  });
});
