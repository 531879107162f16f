import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Context } from '@deepseek-ai/cordis';
import type { Agent } from '@deepseek-ai/dsh-agent';
import { CallId } from '@deepseek-ai/dsh-llm';
import { escalationHintMarker, sandboxDenialMarker } from '@deepseek-ai/dsh-sandbox';
import { SystemPrompt } from '@deepseek-ai/dsh-system-prompt';
import { ToolRuntime, type ToolExecutionResult } from '@deepseek-ai/dsh-tools';
import type { ActionRunner, RunRequest } from '../../src/actions/action-runner.ts';
import { ActionError } from '../../src/errors.ts';
import type { WriteAuthorizer } from '../../src/permission/write-authorizer-types.ts';
import { waitBudget } from '../../src/tools/lsp-diagnostics-tool.ts';
import { registerLspTools } from '../../src/tools/register-lsp-tools.ts';
import { diag, diagnosticsResult, fakeAgent, stubRunner, toolDeps, WS, type StubRunner } from './tool-fixtures.ts';

let mounted: Context | undefined;
afterEach(async () => {
  await mounted?.root.fiber.dispose();
  mounted = undefined;
});

async function mount(answer: (r: RunRequest) => unknown, canEscalate = true): Promise<{ ctx: Context; runner: StubRunner }> {
  const runner = stubRunner(answer);
  const deps = toolDeps(runner, { canEscalate });
  const ctx = new Context();
  mounted = ctx;
  await ctx.plugin(SystemPrompt);
  await ctx.plugin(ToolRuntime);
  await ctx.plugin({
    name: 'lsp-tools-under-test',
    inject: ['tools'],
    apply: (c: Context) => registerLspTools(c, { runner: deps.runner as ActionRunner, authorizer: deps.authorizer as WriteAuthorizer, config: deps.config }),
  });
  return { ctx, runner };
}

let seq = 0;
function call(c: Context, name: string, args: Record<string, unknown>, agent: Agent | null = fakeAgent(), signal = new AbortController().signal): Promise<ToolExecutionResult> {
  return c.tools.execute({ callId: CallId(`call-${++seq}`), name, arguments: args, ...(agent ? { agent } : {}), signal });
}

const text = (r: ToolExecutionResult): string => r.content.map((b) => ('text' in b ? b.text : '')).join('');

describe('tool execution plumbing', () => {
  it('converts one-based arguments to the wire and forwards the call identity', async () => {
    const { ctx, runner } = await mount((r) => ({ kind: 'unchanged', filePath: (r.params as { filePath: string }).filePath }));
    const agent = fakeAgent();
    const result = await call(ctx, 'lsp_rename', { file_path: 'src/a.ts', line: 3, character: 5, new_name: 'renamed' }, agent);
    assert.equal(result.isError, false, text(result));
    const [request] = runner.requests;
    assert.ok(request);
    assert.equal(request.action, 'rename');
    assert.deepEqual(request.params, { filePath: `${WS}/src/a.ts`, position: { line: 2, character: 4 }, newName: 'renamed', workspaceRoot: WS });
    assert.equal(request.session, agent.session);
    assert.equal(request.agent, agent);
    assert.equal(request.toolName, 'lsp_rename');
    assert.equal(request.callId, `call-${seq}`);
    assert.equal((request.actor as { callId?: string }).callId, `call-${seq}`, 'the actor is the tool call');
    assert.equal(request.escalation, undefined);
  });

  it('forwards the call signal: aborting the call aborts what the runner sees', async () => {
    let seen: AbortSignal | undefined;
    const { ctx } = await mount(async (r) => {
      seen = r.signal;
      await new Promise((resolve) => r.signal.addEventListener('abort', resolve, { once: true }));
      throw new ActionError('LSP_ACTION_CANCELLED', 'the call was cancelled');
    });
    const controller = new AbortController();
    const pending = call(ctx, 'lsp_signature', { file_path: 'a.ts', line: 1, character: 1 }, fakeAgent(), controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    const result = await pending;
    assert.equal(result.isError, true);
    assert.equal(seen?.aborted, true);
  });

  it('requires the session cwd as the workspace: no agent, or no cwd → LSP_ACTION_WORKSPACE_REQUIRED', async () => {
    const { ctx, runner } = await mount(() => ({}));
    for (const agent of [null, fakeAgent(null)]) {
      const result = await call(ctx, 'lsp_diagnostics', { file_path: 'a.ts' }, agent);
      assert.equal(result.isError, true);
      assert.equal(result.error?.info?.code, 'LSP_ACTION_WORKSPACE_REQUIRED');
      assert.equal(result.error?.info?.name, 'ActionError');
      assert.match(text(result), /lsp_diagnostics works on the session's project directory/);
    }
    assert.equal(runner.requests.length, 0);
  });

  it('rejects bad arguments before the runner with LSP_ACTION_INVALID_ARGS', async () => {
    const { ctx, runner } = await mount(() => ({}));
    for (const [name, args] of [
      ['lsp_completion', { file_path: 'a.ts', line: 0, character: 1 }],
      ['lsp_format', { file_path: 'a.ts', start_line: 4, end_line: 2 }],
      ['lsp_format', { file_path: 'a.ts', sandbox_permissions: 'workspace-write' }],
      ['lsp_symbols', {}],
      ['lsp_diagnostics', { file_path: 'a.ts', file_paths: ['b.ts'] }],
      ['lsp_code_action', { file_path: 'a.ts', index: 0 }],
    ] as const) {
      const result = await call(ctx, name, args);
      assert.equal(result.error?.info?.code, 'LSP_ACTION_INVALID_ARGS', `${name} ${JSON.stringify(args)}: ${text(result)}`);
    }
    assert.equal(runner.requests.length, 0);
  });

  it('forwards a paired escalation', async () => {
    const { ctx, runner } = await mount((r) => ({ kind: 'unchanged', filePath: (r.params as { filePath: string }).filePath }));
    const result = await call(ctx, 'lsp_format', { file_path: 'a.ts', sandbox_permissions: 'workspace-write', justification: 'format the file the user asked about' });
    assert.equal(result.isError, false, text(result));
    assert.deepEqual(runner.requests[0]?.escalation, { requestedMode: 'workspace-write', justification: 'format the file the user asked about' });
  });

  it('keeps the failure code and adds the next step to the message', async () => {
    const { ctx } = await mount(() => {
      throw new ActionError('LSP_ACTION_CONFLICT', 'src/a.ts changed on disk', { paths: [`${WS}/src/a.ts`] });
    });
    const result = await call(ctx, 'lsp_format', { file_path: 'src/a.ts' });
    assert.equal(result.error?.info?.code, 'LSP_ACTION_CONFLICT');
    assert.equal(text(result), 'Error: src/a.ts changed on disk. The file changed since the language server saw it; nothing was written. Re-read the file if you need to, then re-run lsp_format.');
  });

  it('passes the read-only refusal through verbatim, sandbox marker included', async () => {
    const message = `${sandboxDenialMarker('read-only')}\n${escalationHintMarker('operation')}`;
    const { ctx } = await mount(() => {
      throw new ActionError('LSP_ACTION_READ_ONLY', message);
    });
    const result = await call(ctx, 'lsp_organize_imports', { file_path: 'a.ts' });
    assert.equal(result.error?.info?.code, 'LSP_ACTION_READ_ONLY');
    assert.equal(text(result), `Error: ${message}`);
  });

  it('wraps an unexpected runner failure as a coded error', async () => {
    const { ctx } = await mount(() => {
      throw new Error('boom');
    });
    const result = await call(ctx, 'lsp_inlay_hints', { file_path: 'a.ts' });
    assert.equal(result.error?.info?.code, 'LSP_ACTION_SERVER_FAILED');
  });
});

describe('lsp_diagnostics through the harness', () => {
  it('shares half the call budget between rounds of files', () => {
    const config = { timeoutMs: 120_000, diagnosticsWaitMs: 20_000 };
    assert.equal(waitBudget(config, 1), 20_000);
    assert.equal(waitBudget(config, 200), 1_200);
    assert.equal(waitBudget(config, 100_000), 1_000);
  });

  it('reports only new and resolved problems on a changes_only call after an earlier check', async () => {
    let answer = diagnosticsResult(`${WS}/src/a.ts`, [diag(1, 'old'), diag(4, 'kept')]);
    const { ctx, runner } = await mount(() => answer);
    const first = await call(ctx, 'lsp_diagnostics', { file_path: 'src/a.ts', changes_only: true });
    assert.match(text(first), /^src\/a\.ts — first check of this file, so everything is listed; 2 errors \(fresh\)\n/);
    answer = diagnosticsResult(`${WS}/src/a.ts`, [diag(6, 'kept'), diag(8, 'new')]);
    const second = await call(ctx, 'lsp_diagnostics', { file_path: 'src/a.ts', changes_only: true });
    assert.equal(
      text(second),
      'src/a.ts — since your last check: 1 new, 1 resolved, 1 unchanged; now 2 problems (fresh)\n+ src/a.ts:9:5 error typescript(2322): new\n- src/a.ts:2:5 error typescript(2322): old (resolved)',
    );
    // Another session has its own baseline.
    const other = await call(ctx, 'lsp_diagnostics', { file_path: 'src/a.ts', changes_only: true }, fakeAgent(WS, 'session-2'));
    assert.match(text(other), /first check of this file/);
    assert.deepEqual(runner.requests[0]?.params, { filePath: `${WS}/src/a.ts`, maxItems: 500, workspaceRoot: WS });
  });

  it('forgets a session\'s baselines when its agent is disposed', async () => {
    const { ctx } = await mount(() => diagnosticsResult(`${WS}/a.ts`, [diag(0, 'x')]));
    const agent = fakeAgent(WS, 'gone');
    await call(ctx, 'lsp_diagnostics', { file_path: 'a.ts' }, agent);
    assert.match(text(await call(ctx, 'lsp_diagnostics', { file_path: 'a.ts', changes_only: true }, agent)), /no change since your last check/);
    ctx.emit('agent/disposed', { agent });
    assert.match(text(await call(ctx, 'lsp_diagnostics', { file_path: 'a.ts', changes_only: true }, agent)), /first check of this file/);
  });

  it('does not take a pending result as the baseline', async () => {
    let answer = diagnosticsResult(`${WS}/a.ts`, [], { state: 'pending' });
    const { ctx } = await mount(() => answer);
    const pending = await call(ctx, 'lsp_diagnostics', { file_path: 'a.ts' });
    assert.match(text(pending), /PENDING.*not a clean result/);
    answer = diagnosticsResult(`${WS}/a.ts`, [diag(0, 'x')]);
    assert.match(text(await call(ctx, 'lsp_diagnostics', { file_path: 'a.ts', changes_only: true })), /first check of this file/);
  });

  it('checks several files, reporting a file that failed next to the others', async () => {
    const { ctx, runner } = await mount((r) => {
      const filePath = (r.params as { filePath: string }).filePath;
      if (filePath.endsWith('missing.ts')) throw new ActionError('LSP_ACTION_FILE_NOT_FOUND', 'missing.ts does not exist');
      return diagnosticsResult(filePath, [diag(0, 'x')]);
    });
    const result = await call(ctx, 'lsp_diagnostics', { file_paths: ['a.ts', 'missing.ts', 'a.ts'] });
    assert.equal(result.isError, false, text(result));
    assert.equal(runner.requests.length, 2, 'duplicates are checked once');
    assert.equal((runner.requests[0]?.params as { waitMs?: number } | undefined)?.waitMs, 20_000, 'two files fit one round: the full wait');
    assert.match(text(result), /^a\.ts — 1 error \(fresh\)\na\.ts:1:5 error typescript\(2322\): x\nmissing\.ts — not checked: missing\.ts does not exist\. Check file_path/);
    const value = result.isError ? undefined : (result.value as { scope: string; total: number });
    assert.equal(value?.scope, 'files');
    assert.equal(value?.total, 1);
  });

  it('fails as a whole when the call runs out of time on any file', async () => {
    const { ctx } = await mount((r) => {
      const filePath = (r.params as { filePath: string }).filePath;
      if (filePath.endsWith('slow.ts')) throw new ActionError('LSP_ACTION_TIMEOUT', 'the call ran out of time before the language server answered');
      return diagnosticsResult(filePath, []);
    });
    const result = await call(ctx, 'lsp_diagnostics', { file_paths: ['a.ts', 'slow.ts'] });
    assert.equal(result.error?.info?.code, 'LSP_ACTION_TIMEOUT');
    assert.match(text(result), /wait a moment and re-run lsp_diagnostics/);
  });

  it('checks the workspace when no path is given', async () => {
    const { ctx, runner } = await mount(() => ({
      kind: 'workspaceDiagnostics', files: [{ filePath: 'lib/b.ts', state: 'fresh', version: 2, diagnostics: [diag(3, 'w', { severity: 2 })], truncated: false, total: 1 }],
      filesChecked: 4, filesSkipped: 0, truncated: false, total: 1, counts: { error: 0, warning: 1, information: 0, hint: 0 },
    }));
    const result = await call(ctx, 'lsp_diagnostics', {});
    assert.equal(runner.requests[0]?.action, 'diagnostics.workspace');
    assert.equal(text(result), 'Workspace: 4 files checked, 1 with problems or not yet analysed, worst first.\nlib/b.ts — 1 warning (fresh)\nlib/b.ts:4:5 warning typescript(2322): w');
    // Without a mounted fs there is no walk: the action looks at the open documents (up to
    // workspaceMaxFiles 200 of them, 4 at a time: 50 rounds share half of the 120 s budget).
    assert.deepEqual(runner.requests[0]?.params, { maxItems: 50, waitMs: 1_200, workspaceRoot: WS });
  });
});
