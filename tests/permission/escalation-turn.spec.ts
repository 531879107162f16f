/**
 * Escalation inside a REAL agent turn (harness-notes §3.3, variant B): dsh-agent-loop driven by a
 * scripted `llm/stream` listener, the real dsh-user-approval with an `approval/request`
 * answerer, a read-only deployment, and a small test tool that authorizes with
 * SandboxWriteAuthorizer and writes with FsWorkspaceWriter — the same two seams the lsp_* tools
 * use. The session log must record the ask and the decision.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { AgentHandle } from '@deepseek-ai/dsh-agent';
import type { ApprovalOutcome } from '@deepseek-ai/dsh-user-approval';
import { defineTool, type ToolExecutionResult } from '@deepseek-ai/dsh-tools';
import { ESCALATION_TARGETS } from '@deepseek-ai/dsh-sandbox';
import { FsWorkspaceWriter } from '../../src/edits/workspace-writer.ts';
import { ActionError } from '../../src/errors.ts';
import { parseEscalationArgs } from '../../src/permission/parse-escalation-args.ts';
import { SandboxWriteAuthorizer } from '../../src/permission/sandbox-write-authorizer.ts';
import { fileEdits, makeWorkspace, replace, type Workspace, workspaceEdit } from '../edits/workspace-fixture.ts';
import { createAgent, type Harness, mountHarness, runTurn, scriptModel } from '../support/harness-mount.ts';

const TOOL = 'probe_rename';
let ws: Workspace;
let h: Harness;
let agent: AgentHandle;
let results: Array<{ callId: string; result: ToolExecutionResult }>;

beforeEach(async () => {
  ws = makeWorkspace({ 'a.ts': 'let a = 1;\n', 'b.ts': 'use(a);\n' });
  h = await mountHarness({ mode: 'read-only', workspace: ws.root, agents: { approval: 'ask' } });
  const authorizer = new SandboxWriteAuthorizer(h.ctx);
  const writer = new FsWorkspaceWriter(h.ctx, h.ctx.fs);
  h.ctx.tools.register(
    defineTool({
      name: TOOL,
      description: 'Renames `a` to `x` in a.ts and b.ts.',
      parameters: {
        sandbox_permissions: { type: 'string', enum: ESCALATION_TARGETS },
        justification: { type: 'string' },
      },
      output: {
        schema: { type: 'object', properties: { files: { type: 'number' }, mode: { type: 'string' } }, additionalProperties: false },
        render: (_args, value) => [{ type: 'text', text: `renamed in ${value.files} file(s) under ${value.mode}` }],
      },
      async execute(args, exec) {
        const escalation = parseEscalationArgs(args);
        const session = exec.agent?.session;
        const root = session?.header.cwd;
        if (root === undefined) throw new ActionError('LSP_ACTION_WORKSPACE_REQUIRED', 'no session cwd');
        const grant = await authorizer.authorize({
          root,
          toolName: TOOL,
          signal: exec.signal,
          callId: exec.callId,
          actor: exec,
          ...(session ? { session } : {}),
          ...(exec.agent ? { agent: exec.agent } : {}),
          ...(escalation ? { escalation } : {}),
        });
        const edit = workspaceEdit(
          fileEdits(ws.path('a.ts'), replace(0, 4, 0, 5, 'x')),
          fileEdits(ws.path('b.ts'), replace(0, 4, 0, 5, 'x')),
        );
        const result = await writer.apply({ root, edit, signal: exec.signal, ...grant });
        return { files: result.files.length, mode: grant.policy?.mode ?? 'unconfined' };
      },
    }),
  );
  results = [];
  h.ctx.on('tools/result', (exec, result) => {
    results.push({ callId: exec.callId, result });
  });
  agent = await createAgent(h.ctx, ws.root);
});

afterEach(async () => {
  await agent.dispose();
  await h.dispose();
  ws.remove();
});

function answer(outcome: ApprovalOutcome): { asked: number } {
  const state = { asked: 0 };
  h.ctx.on('approval/request', async () => {
    state.asked += 1;
    return outcome;
  });
  return state;
}

function errorCode(result: ToolExecutionResult | undefined): unknown {
  return result?.isError ? (result.error.info as { code?: unknown } | undefined)?.code : undefined;
}

function eventsOf(type: string): Array<Record<string, unknown>> {
  return agent.agent.session.events.filter((event) => event.type === type).map((event) => event.data as Record<string, unknown>);
}

const retry = { sandbox_permissions: 'workspace-write', justification: 'the user asked for the rename' };

describe('escalation in a real agent turn', () => {
  it('read-only refuses, then an approved escalation writes every file under workspace-write', async () => {
    const approval = answer('allowed-once');
    const model = scriptModel(h.ctx, [[{ name: TOOL, arguments: {} }], [{ name: TOOL, arguments: retry }]]);
    await runTurn(agent, 'rename a to x');

    assert.equal(model.requests, 3);
    assert.equal(results.length, 2);
    assert.equal(errorCode(results[0]?.result), 'LSP_ACTION_READ_ONLY');
    const refusal = results[0]?.result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    assert.match(refusal ?? '', /\[sandbox: file access denied under read-only mode\]/);
    assert.match(refusal ?? '', /\[sandbox: escalation available/);
    assert.equal(results[1]?.result.isError, false);
    assert.deepEqual(results[1]?.result.isError === false ? results[1].result.value : undefined, { files: 2, mode: 'workspace-write' });

    assert.equal(approval.asked, 1);
    assert.equal(ws.read('a.ts'), 'let x = 1;\n');
    assert.equal(ws.read('b.ts'), 'use(x);\n');
    const asked = eventsOf('approval/asked');
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.toolName, TOOL);
    assert.equal(asked[0]?.callId, results[1]?.callId);
    assert.match(String(asked[0]?.reason), /escalate sandbox to workspace-write: the user asked for the rename/);
    assert.deepEqual(eventsOf('approval/decided').map((event) => event.outcome), ['allowed-once']);
  });

  it('a rejected escalation writes nothing and fails closed', async () => {
    const approval = answer('rejected');
    scriptModel(h.ctx, [[{ name: TOOL, arguments: retry }]]);
    await runTurn(agent, 'rename a to x');

    assert.equal(approval.asked, 1);
    assert.equal(errorCode(results[0]?.result), 'LSP_ACTION_APPROVAL_UNAVAILABLE');
    assert.match(results[0]?.result.isError ? results[0].result.error.message : '', /the user rejected escalating this operation/);
    assert.equal(ws.read('a.ts'), 'let a = 1;\n');
    assert.equal(ws.read('b.ts'), 'use(a);\n');
    assert.deepEqual(eventsOf('approval/decided').map((event) => event.outcome), ['rejected']);
  });

  it('an approval channel with no answerer is unavailable: nothing written', async () => {
    scriptModel(h.ctx, [[{ name: TOOL, arguments: retry }]]);
    await runTurn(agent, 'rename a to x');
    assert.equal(errorCode(results[0]?.result), 'LSP_ACTION_APPROVAL_UNAVAILABLE');
    assert.equal(ws.read('a.ts'), 'let a = 1;\n');
    assert.deepEqual(eventsOf('approval/decided').map((event) => event.outcome), ['unavailable']);
  });
});
