/**
 * A TypeScript 7 workspace is served (serve, check) by that TypeScript's own `tsc --lsp`, found
 * as the real typescript@7 package installs it (the alias in tests/servers), never by the
 * embedded 5.9 — and an older workspace keeps the embedded server.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { workspaceNativeServer } from '../../src/cli/serve-command.ts';
import { chooseTypeScript, nativeCommand } from '../../src/cli/workspace-typescript.ts';
import { TS7_TSC, testServersInstalled } from '../support/servers.ts';
import { REPO } from './cli-harness.ts';

const TS7_PACKAGE = join(REPO, 'tests', 'servers', 'node_modules', 'typescript7');
const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function workspaceWith(typescript: string | undefined): string {
  const root = mkdtempSync(join(tmpdir(), 'dsh-native-ts-'));
  roots.push(root);
  mkdirSync(join(root, 'node_modules'), { recursive: true });
  if (typescript !== undefined) symlinkSync(typescript, join(root, 'node_modules', 'typescript'));
  return root;
}

describe('the workspace TypeScript 7', { skip: !testServersInstalled() }, () => {
  it("is chosen as native, its platform binary run directly as tsc --lsp --stdio", () => {
    const root = workspaceWith(TS7_PACKAGE);
    const choice = chooseTypeScript(root, 'auto', root);
    assert.equal(choice.source, 'workspace');
    assert.equal(choice.kind, 'native');
    assert.equal(choice.version, '7.0.2');
    assert.equal(choice.serverPath, TS7_TSC);
    assert.deepEqual(nativeCommand(choice.serverPath), { command: TS7_TSC, args: [] });
    const entry = workspaceNativeServer(root);
    assert.equal(entry?.command, TS7_TSC);
    assert.deepEqual(entry?.args, ['--lsp', '--stdio']);
    assert.equal(entry?.extensionToLanguage['.ts'], 'typescript');
  });

  it('without its platform package the JS wrapper is run by this Node', () => {
    const root = workspaceWith(undefined);
    const copy = join(root, 'node_modules', 'typescript');
    mkdirSync(join(copy, 'bin'), { recursive: true });
    writeFileSync(join(copy, 'package.json'), JSON.stringify({ name: 'typescript', version: '7.0.2' }));
    writeFileSync(join(copy, 'bin', 'tsc'), '');
    const choice = chooseTypeScript(root, 'auto', root);
    assert.equal(choice.kind, 'native');
    assert.deepEqual(nativeCommand(choice.serverPath), { command: process.execPath, args: [join(copy, 'bin', 'tsc')] });
  });

  it('a workspace on TypeScript 5 keeps the embedded server in serve', () => {
    const root = workspaceWith(join(REPO, 'node_modules', 'typescript'));
    assert.equal(chooseTypeScript(root, 'auto', root).kind, 'tsserver');
    assert.equal(workspaceNativeServer(root), undefined);
  });
});
