/**
 * Which TypeScript server entries `check` turns into a directly driven tsserver
 * (src/cli/direct-tsserver.ts): only the embedded typescript-language-server entry, with the
 * tsserver it names (a user's `tsserver.path` included); a user's own command or arguments keep
 * their server. And the inferred-project options typescript-language-server sends, per version.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { directTsserverEntry } from '../../src/cli/direct-tsserver.ts';
import { ServerConfig } from '../../src/config.ts';
import { inferredProjectOptions, TSSERVER_FLAGS } from '../../src/lsp/tsserver-host-settings.ts';
import { embeddedTypeScriptServer } from '../../src/presets/embedded-typescript.ts';

const require = createRequire(import.meta.url);
const TYPESCRIPT = dirname(require.resolve('typescript/package.json'));
const TSSERVER = join(TYPESCRIPT, 'lib', 'tsserver.js');
const VERSION = (require('typescript/package.json') as { version: string }).version;

describe('directTsserverEntry', () => {
  it('the embedded entry becomes tsserver run by the same Node, with its flags, env kept and NODE_PATH set', () => {
    const embedded = embeddedTypeScriptServer();
    const entry = ServerConfig({ ...embedded, env: { NODE_OPTIONS: '--import x', OTHER: '1' } });
    const direct = directTsserverEntry(entry);
    assert.ok(direct !== undefined);
    assert.equal(direct.protocol, 'tsserver');
    assert.equal(direct.command, process.execPath);
    assert.deepEqual(direct.args, [TSSERVER, ...TSSERVER_FLAGS]);
    assert.deepEqual(direct.env, { NODE_OPTIONS: '--import x', OTHER: '1', NODE_PATH: dirname(TYPESCRIPT) });
    assert.deepEqual((direct.initializationOptions?.['tsserver'] as Record<string, unknown> | undefined)?.['version'], VERSION);
    assert.deepEqual(direct.extensionToLanguage, entry.extensionToLanguage);
    assert.deepEqual(direct.initializationOptions?.['preferences'], entry.initializationOptions?.['preferences']);
  });

  it('a tsserver.path set by the user is the tsserver run', () => {
    const embedded = embeddedTypeScriptServer();
    const other = '/opt/ts/node_modules/typescript/lib/tsserver.js';
    const direct = directTsserverEntry(ServerConfig({ ...embedded, initializationOptions: { ...embedded.initializationOptions, tsserver: { path: other } } }));
    assert.equal(direct?.args[0], other);
    assert.equal((direct?.initializationOptions?.['tsserver'] as Record<string, unknown> | undefined)?.['version'], 'unknown');
  });

  it('initializationOptions.plugins become --globalPlugins and --pluginProbeLocations, as typescript-language-server passes them', () => {
    const embedded = embeddedTypeScriptServer();
    const plugins = [{ name: 'a-plugin', location: '/tmp/probe-a' }, { name: 'b-plugin', location: '/tmp/probe-a' }, { name: 'c-plugin' }, { location: '/tmp/nameless' }];
    const direct = directTsserverEntry(ServerConfig({ ...embedded, initializationOptions: { ...embedded.initializationOptions, plugins } }));
    assert.deepEqual(direct?.args, [TSSERVER, ...TSSERVER_FLAGS, '--globalPlugins', 'a-plugin,b-plugin,c-plugin', '--pluginProbeLocations', '/tmp/probe-a']);
  });

  it('a user’s own command or arguments keep their server; an entry already bridged is left alone', () => {
    const embedded = embeddedTypeScriptServer();
    assert.equal(directTsserverEntry(ServerConfig({ ...embedded, command: '/usr/bin/typescript-language-server', args: ['--stdio'] })), undefined);
    assert.equal(directTsserverEntry(ServerConfig({ ...embedded, args: [...embedded.args, '--log-level', '4'] })), undefined);
    assert.equal(directTsserverEntry(ServerConfig({ ...embedded, protocol: 'tsserver' })), undefined);
  });
});

describe('inferredProjectOptions', () => {
  it('5.4 and newer: preserve/bundler, overridden by the implicit project defaults (esnext, es2024, strict)', () => {
    assert.deepEqual(inferredProjectOptions('5.9.3'), {
      module: 'esnext',
      moduleResolution: 'bundler',
      target: 'es2024',
      jsx: 'react-jsx',
      allowImportingTsExtensions: true,
      strictNullChecks: true,
      strictFunctionTypes: true,
      strict: true,
      sourceMap: true,
      allowJs: true,
      allowNonTsExtensions: true,
      allowSyntheticDefaultImports: true,
      resolveJsonModule: true,
    });
  });

  it('4.x: node resolution, no allowImportingTsExtensions; settings switch checkJs on and strict off', () => {
    const options = inferredProjectOptions('4.9.5', { checkJs: true, strict: false });
    assert.equal(options['moduleResolution'], 'node');
    assert.equal('allowImportingTsExtensions' in options, false);
    assert.equal(options['checkJs'], true);
    assert.equal('strict' in options, false);
  });
});
