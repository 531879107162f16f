/**
 * How the write path talks to dsh-fs-observation-policy (docs/decisions/0002): what an agent's
 * own next write (`fs/write-intent` → guarded `writeText`, as the harness `write` tool does it)
 * finds after an action wrote files for the agent, or for the editor.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { FsWriteOutcome } from '@deepseek-ai/dsh-fs';
import type { SandboxExecutionPolicy } from '@deepseek-ai/dsh-sandbox';
import { FsWorkspaceWriter } from '../../src/edits/workspace-writer.ts';
import { isActionError } from '../../src/errors.ts';
import { type Harness, mountHarness } from '../support/harness-mount.ts';
import { fileEdits, makeWorkspace, replace, type Workspace, workspaceEdit } from './workspace-fixture.ts';

let ws: Workspace;
let h: Harness;
let writer: FsWorkspaceWriter;
let policy: SandboxExecutionPolicy;
/** A tool execution on behalf of an agent, as the observation policy sees it (keyed by `agent.session`). */
let agentExec: object;

beforeEach(async () => {
  ws = makeWorkspace({ 'a.ts': 'let a = 1;\n', 'b.ts': 'let b = 2;\n' });
  h = await mountHarness({ mode: 'workspace-write', workspace: ws.root });
  writer = new FsWorkspaceWriter(h.ctx, h.ctx.fs);
  policy = h.ctx.sandboxPolicy.resolve();
  agentExec = { agent: { session: { header: { cwd: ws.root } } } };
});

afterEach(async () => {
  await h.dispose();
  ws.remove();
});

/** The agent reads a file with a read tool: the tool records the observation. */
async function agentReads(name: string): Promise<void> {
  const target = await h.ctx.fs.resolve(ws.path(name));
  const info = await h.ctx.fs.stat(target);
  await h.ctx.fs.readText(target);
  assert.ok(info);
  h.ctx.emit('fs/observed', target, { kind: 'present', version: info.version }, agentExec);
}

/** The agent writes a file with the harness write tool's sequence. */
async function agentWrites(name: string, content: string): Promise<FsWriteOutcome> {
  const target = await h.ctx.fs.resolve(ws.path(name));
  const intent = await h.ctx.waterfall('fs/write-intent', target, agentExec, () => undefined);
  const outcome = await h.ctx.fs.writeText(target, content, intent, undefined, policy);
  h.ctx.emit('fs/observed', target, { kind: 'present', version: outcome.version }, agentExec);
  return outcome;
}

async function fsCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return String((error as { code?: unknown }).code);
  }
  assert.fail('expected a failure');
}

const renameA = () => workspaceEdit(fileEdits(ws.path('a.ts'), replace(0, 4, 0, 5, 'x')));

describe('write path and fs observations', () => {
  it("records the written version for an agent that had read the file: its next write is an update", async () => {
    await agentReads('a.ts');
    await writer.apply({ root: ws.root, edit: renameA(), policy, actor: agentExec });
    assert.equal(ws.read('a.ts'), 'let x = 1;\n');
    const outcome = await agentWrites('a.ts', 'let x = 10;\n');
    assert.equal(outcome.operation, 'update');
    assert.equal(ws.read('a.ts'), 'let x = 10;\n');
  });

  it("writes for an agent that never read the file, without counting the tool's read as the agent's", async () => {
    await writer.apply({ root: ws.root, edit: renameA(), policy, actor: agentExec });
    assert.equal(ws.read('a.ts'), 'let x = 1;\n');
    assert.equal(await fsCode(agentWrites('a.ts', 'blind overwrite\n')), 'FS_NOT_OBSERVED');
    assert.equal(ws.read('a.ts'), 'let x = 1;\n');
  });

  it('editor (agentless) write: the agent holding an older observation must re-read (FS_STALE_VERSION)', async () => {
    await agentReads('a.ts');
    await writer.apply({ root: ws.root, edit: renameA(), policy });
    assert.equal(ws.read('a.ts'), 'let x = 1;\n');
    assert.equal(await fsCode(agentWrites('a.ts', 'from stale memory\n')), 'FS_STALE_VERSION');
    assert.equal(ws.read('a.ts'), 'let x = 1;\n');
    await agentReads('a.ts');
    assert.equal((await agentWrites('a.ts', 'after re-reading\n')).operation, 'update');
  });

  it("does not launder an external change into the agent's record", async () => {
    await agentReads('a.ts');
    ws.write('a.ts', 'let a = 1; // the user edited this\n');
    await writer.apply({ root: ws.root, edit: renameA(), policy, actor: agentExec });
    assert.equal(ws.read('a.ts'), 'let x = 1; // the user edited this\n');
    assert.equal(await fsCode(agentWrites('a.ts', 'from stale memory\n')), 'FS_STALE_VERSION');
  });

  it('records a created file for the agent', async () => {
    const edit = workspaceEdit({ kind: 'create', path: ws.path('c.ts') }, fileEdits(ws.path('c.ts'), replace(0, 0, 0, 0, 'let c;\n')));
    await writer.apply({ root: ws.root, edit, policy, actor: agentExec });
    assert.equal((await agentWrites('c.ts', 'let c = 3;\n')).operation, 'update');
  });

  it('after a rollback, restored files stay writable for the agent and the changed one does not', async () => {
    await agentReads('a.ts');
    await agentReads('b.ts');
    h.ctx.on(
      'fs/write-intent',
      async (target, _actor, next) => {
        if (target.displayPath === ws.path('b.ts')) ws.write('b.ts', 'user change\n');
        return next();
      },
      true,
    );
    const edit = workspaceEdit(renameA().steps[0]!, fileEdits(ws.path('b.ts'), replace(0, 4, 0, 5, 'y')));
    await assert.rejects(writer.apply({ root: ws.root, edit, policy, actor: agentExec }), (error) => {
      assert.ok(isActionError(error));
      assert.equal(error.code, 'LSP_ACTION_WRITE_FAILED');
      assert.deepEqual(error.details.restored, [ws.path('a.ts')]);
      return true;
    });
    assert.equal(ws.read('a.ts'), 'let a = 1;\n');
    assert.equal((await agentWrites('a.ts', 'let a = 11;\n')).operation, 'update');
    assert.equal(await fsCode(agentWrites('b.ts', 'from stale memory\n')), 'FS_STALE_VERSION');
    assert.equal(ws.read('b.ts'), 'user change\n');
  });
});
