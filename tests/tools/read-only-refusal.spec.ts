import assert from 'node:assert/strict';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CallId } from '@deepseek-ai/dsh-llm';
import { sandboxDenialMarker } from '@deepseek-ai/dsh-sandbox';
import * as plugin from '../../src/index.ts';
import { mountHarness, type Harness } from '../support/harness-mount.ts';
import { fakeAgent } from './tool-fixtures.ts';

const SOURCE = 'const   x = 1;\n';

let workspace: string;
let harness: Harness;
before(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'lsp-tools-ro-')));
  await writeFile(join(workspace, 'a.ts'), SOURCE);
  harness = await mountHarness({ mode: 'read-only', workspace });
  await harness.ctx.plugin(plugin, {} as never);
});
after(async () => {
  await harness.dispose();
  await rm(workspace, { recursive: true, force: true });
});

describe('write tools under a read-only session (the whole plugin, real harness services)', () => {
  // No approval service is mounted, so the authorizer adds no escalation hint (an ask could not succeed).
  it('refuse with LSP_ACTION_READ_ONLY and the harness sandbox marker, before any language server runs', async () => {
    for (const [name, args] of [
      ['lsp_format', { file_path: 'a.ts' }],
      ['lsp_organize_imports', { file_path: 'a.ts' }],
      ['lsp_rename', { file_path: 'a.ts', line: 1, character: 9, new_name: 'y' }],
      ['lsp_code_action', { file_path: 'a.ts', index: 1 }],
    ] as const) {
      const result = await harness.ctx.tools.execute({ callId: CallId(`ro-${name}`), name, arguments: args, agent: fakeAgent(workspace), signal: new AbortController().signal });
      assert.equal(result.isError, true, name);
      assert.equal(result.error?.info?.code, 'LSP_ACTION_READ_ONLY', name);
      const text = result.content.map((b) => ('text' in b ? b.text : '')).join('');
      assert.ok(text.includes(sandboxDenialMarker('read-only')), `${name}: ${text}`);
    }
    assert.deepEqual(harness.ctx.lspActions.engine.liveServers(), [], 'no server was started');
    assert.equal(await readFile(join(workspace, 'a.ts'), 'utf8'), SOURCE);
  });
});
