/**
 * The shipped default composition: rows, their configs, resolvable plugin names, the YAML a
 * user can save and pass to `--config`, and the stderr logger.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { Config } from '../../src/config.ts';
import { compositionToYaml, defaultComposition, HARNESS_ROWS, resolvePluginName } from '../../src/cli/default-composition.ts';
import { resolveServers } from '../../src/cli/default-servers.ts';
import { stderrExporter } from '../../src/cli/boot-composition.ts';
import { errorMessage } from '../../src/cli/cli-io.ts';

const servers = resolveServers({ workspace: '/nonexistent', path: '' }).servers;

describe('defaultComposition', () => {
  const rows = defaultComposition({ workspace: '/ws', sandbox: 'read-only', servers, editor: true, plugin: { diagnosticsWaitMs: 1234 } });

  it('has the harness rows in order, then the plugin', () => {
    assert.deepEqual(rows.map((r) => r.id), [...HARNESS_ROWS.map((r) => r.id), 'lsp-actions']);
    assert.deepEqual(HARNESS_ROWS.map((r) => r.package), [
      '@deepseek-ai/dsh-system-prompt',
      '@deepseek-ai/dsh-tools',
      '@deepseek-ai/dsh-sandbox-policy',
      '@deepseek-ai/dsh-fs-sandbox',
      '@deepseek-ai/dsh-subprocess-local',
      '@deepseek-ai/dsh-fs-observation-policy',
      '@deepseek-ai/dsh-tool-call-timeout-policy',
    ]);
  });

  it('names every plugin by an absolute file URL that exists', () => {
    for (const row of rows) {
      assert.match(row.name, /^file:\/\//);
      assert.ok(existsSync(fileURLToPath(row.name)), row.name);
    }
    assert.match(rows.at(-1)?.name ?? '', /\/src\/index\.ts$/);
  });

  it('configures the sandbox, the fs root and the plugin (editor, servers, extras)', () => {
    const byId = Object.fromEntries(rows.map((r) => [r.id, r.config]));
    assert.deepEqual(byId['sandbox-policy'], { mode: 'read-only', workspaceRoot: '/ws' });
    assert.deepEqual(byId['fs'], { cwd: '/ws' });
    const plugin = Config(byId['lsp-actions'] as unknown as Config);
    assert.equal(plugin.editor.enabled, true);
    assert.equal(plugin.embeddedTypeScript, false);
    assert.equal(plugin.diagnosticsWaitMs, 1234);
    assert.deepEqual(Object.keys(plugin.servers), ['typescript']);
  });

  it('renders as a cordis.yml that parses back to the same rows', () => {
    const yml = compositionToYaml(rows, 'header line\nsecond');
    assert.match(yml, /^# header line\n# second\n- id: system-prompt/);
    assert.deepEqual(parseYaml(yml), JSON.parse(JSON.stringify(rows)));
  });

  it('names a missing harness package', () => {
    assert.throws(() => resolvePluginName('@deepseek-ai/dsh-not-a-package'), /cannot find the harness package @deepseek-ai\/dsh-not-a-package/);
  });
});

const message = (type: 'error' | 'warn' | 'info' | 'debug') => ({ sn: 1, ts: 0, name: 'x', type, level: 0, args: [`a ${type}`] });

describe('stderr logger', () => {
  it('writes messages at or above the level, one line each; silent writes nothing', () => {
    const stream = new PassThrough();
    const exporter = stderrExporter(stream, 'warn');
    exporter.export(message('error'));
    exporter.export(message('warn'));
    exporter.export(message('info'));
    exporter.export(message('debug'));
    assert.equal(String(stream.read()), 'error [x] a error\nwarn [x] a warn\n');
    const silent = new PassThrough();
    stderrExporter(silent, 'silent').export(message('error'));
    assert.equal(silent.read(), null);
  });

  it('errorMessage keeps a cause and flattens aggregates', () => {
    assert.equal(errorMessage(new Error('outer', { cause: new Error('inner') })), 'outer: inner');
    assert.equal(errorMessage(new AggregateError([new Error('a'), new Error('b')], 'x')), 'a; b');
    assert.equal(errorMessage('text'), 'text');
  });
});
