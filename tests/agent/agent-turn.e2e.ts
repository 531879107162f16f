/**
 * Real agent turns (harness-notes §3.3, variant B) against a real typescript-language-server: the
 * DSH agent loop with a scripted `llm/stream` model (no key, no network), the real sandbox policy,
 * sandboxed fs, approval service, subprocess and timeout policy, and the plugin from `src/`.
 *
 * What the model sees is asserted on the requests the scripted model was sent; what happened is
 * asserted on the session's events and on the files themselves.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Agent } from '@deepseek-ai/dsh-agent';
import { sandboxDenialMarker } from '@deepseek-ai/dsh-sandbox';
import { childPids } from '../composition/fixtures/processes.ts';
import {
  BROKEN_SOURCE,
  createTsWorkspace,
  FORMATTED_LINES,
  SOURCE_FILE,
  TYPE_ERROR_CODE,
  TYPE_ERROR_LINE,
  type TsWorkspace,
} from '../composition/fixtures/workspace.ts';
import type { SandboxMode } from '@deepseek-ai/dsh-sandbox';
import type { TestContext } from 'node:test';
import {
  eventsOf,
  eventTypes,
  ScriptedAgentHarness,
  type ScriptedToolCall,
  type SeenToolResult,
} from '../support/scripted-agent.ts';

const READ_ONLY_MARKER = '[sandbox: file access denied under read-only mode]';
const JUSTIFICATION = 'The user asked me to format src/main.ts.';

/** A fresh workspace, a harness with the given default mode, and one agent whose cwd is the workspace. */
async function setup(t: TestContext, prefix: string, mode: SandboxMode): Promise<{ ws: TsWorkspace; harness: ScriptedAgentHarness; agent: Agent }> {
  const ws = createTsWorkspace(prefix);
  let harness: ScriptedAgentHarness | undefined;
  t.after(async () => {
    await harness?.dispose();
    ws.remove();
  });
  harness = await ScriptedAgentHarness.start({ workspace: ws.root, sandboxMode: mode });
  const agent = await harness.createAgent(ws.root);
  return { ws, harness, agent };
}

/** The tool result the model was sent for `callId`; fails naming the events when there is none. */
function seen(harness: ScriptedAgentHarness, agent: Agent, callId: string): SeenToolResult {
  const result = harness.model.seenToolResult(callId);
  assert.ok(result, `the model was sent a result for ${callId}; events: ${eventTypes(agent).join(' ')}`);
  return result;
}

/** The `tool/result` event of `callId`. */
function toolResultEvent(agent: Agent, callId: string) {
  const event = eventsOf(agent, 'tool/result').find((entry) => entry.data.message.content[0].toolCallId === callId);
  assert.ok(event, `a tool/result event for ${callId}`);
  return event;
}

/** An `lsp_format` call asking for `workspace-write`. */
function escalatedFormat(id: string): ScriptedToolCall {
  return {
    id,
    name: 'lsp_format',
    arguments: { file_path: SOURCE_FILE, sandbox_permissions: 'workspace-write', justification: JUSTIFICATION },
  };
}

/** The script played exactly: every queued response used, no extra request. */
function assertScriptPlayed(harness: ScriptedAgentHarness): void {
  assert.equal(harness.model.remaining, 0, 'every scripted response was used');
  assert.equal(harness.model.overruns, 0, 'the model was not asked more often than scripted');
}

test('read-only session: lsp_format is refused with the sandbox marker before any language-server round-trip', { timeout: 120_000 }, async (t) => {
  const { ws, harness, agent } = await setup(t, 'lsp-actions-agent-ro-', 'read-only');
  const childrenBefore = childPids(process.pid);

  await harness.prompt(agent, 'Format src/main.ts.', [
    { toolCalls: [{ id: 'format_ro', name: 'lsp_format', arguments: { file_path: SOURCE_FILE } }] },
    { text: 'The sandbox is read-only, so I could not format the file.' },
  ]);
  assertScriptPlayed(harness);

  // The model was offered the escalation pair, since the fs backend confines writes.
  const formatSchema = harness.model.requests[0]?.tools?.find((tool) => tool.name === 'lsp_format');
  assert.ok(formatSchema, 'lsp_format was offered to the model');
  const properties = (formatSchema.parameters as { properties?: Record<string, unknown> }).properties ?? {};
  assert.ok('sandbox_permissions' in properties && 'justification' in properties, 'escalation parameters are advertised');

  // What the model saw: an error carrying the harness's own sandbox marker.
  const result = seen(harness, agent, 'format_ro');
  t.diagnostic(`model saw: ${result.text}`);
  assert.equal(result.isError, true);
  assert.equal(sandboxDenialMarker('read-only'), READ_ONLY_MARKER, 'the harness marker text is what this test pins');
  assert.ok(result.text.includes(READ_ONLY_MARKER), `the refusal carries ${READ_ONLY_MARKER}: ${result.text}`);

  // What the session recorded: the stable code, no approval question.
  assert.equal(toolResultEvent(agent, 'format_ro').data.error?.code, 'LSP_ACTION_READ_ONLY');
  assert.equal(eventsOf(agent, 'approval/asked').length, 0, 'no approval was asked without an escalation request');

  // Nothing was written, and no server was started or asked.
  assert.equal(ws.read(), BROKEN_SOURCE, 'the file is unchanged');
  const engine = harness.ctx.get('lspActions')?.engine;
  assert.ok(engine, 'the lspActions service is provided');
  assert.deepEqual(engine.liveServers(), [], 'no language server was started for the refused call');
  assert.deepEqual(engine.openDocuments(), [], 'no document was opened on a server');
  assert.deepEqual(
    childPids(process.pid).filter((pid) => !childrenBefore.includes(pid)),
    [],
    'no process was spawned during the turn',
  );
});

test('read-only session + approved escalation: lsp_format formats the file and the session records the approval', { timeout: 180_000 }, async (t) => {
  const { ws, harness, agent } = await setup(t, 'lsp-actions-agent-esc-', 'read-only');
  harness.approvalAnswer = 'allowed-once';

  await harness.prompt(agent, 'Format src/main.ts.', [
    { toolCalls: [escalatedFormat('format_esc')] },
    { text: 'Formatted.' },
  ]);
  assertScriptPlayed(harness);

  const result = seen(harness, agent, 'format_esc');
  t.diagnostic(`model saw: ${result.text}`);
  assert.equal(result.isError, false, result.text);
  assert.match(result.text, /Formatted src\/main\.ts/, 'the model is told what was formatted');

  // The file on disk is formatted (verify the world, not the claim); the type error is left alone.
  const after = ws.read();
  assert.notEqual(after, BROKEN_SOURCE, 'the file changed');
  assert.deepEqual(after.split('\n').slice(0, FORMATTED_LINES.length), [...FORMATTED_LINES]);

  // The approval audit pair, for this call, before its result.
  const asked = eventsOf(agent, 'approval/asked');
  const decided = eventsOf(agent, 'approval/decided');
  assert.equal(asked.length, 1, 'one approval question');
  assert.equal(asked[0]?.data.toolName, 'lsp_format');
  assert.equal(asked[0]?.data.callId, 'format_esc');
  assert.equal(decided.length, 1);
  assert.equal(decided[0]?.data.id, asked[0]?.data.id, 'the decision answers that question');
  assert.equal(decided[0]?.data.outcome, 'allowed-once');
  const resultEvent = toolResultEvent(agent, 'format_esc');
  assert.ok((asked[0]?.seq ?? Infinity) < (decided[0]?.seq ?? -1) && (decided[0]?.seq ?? Infinity) < resultEvent.seq, 'asked → decided → result');
  assert.equal(resultEvent.data.error, undefined, 'the result is not an error');
  assert.deepEqual(
    harness.approvals.map((entry) => [entry.toolName, entry.callId, entry.answered]),
    [['lsp_format', 'format_esc', 'allowed-once']],
    'the answerer was asked once, for this call',
  );
});

test('read-only session + rejected (or unanswered) escalation: nothing is written, LSP_ACTION_APPROVAL_UNAVAILABLE', { timeout: 120_000 }, async (t) => {
  const { ws, harness, agent } = await setup(t, 'lsp-actions-agent-rej-', 'read-only');
  harness.approvalAnswer = 'rejected';
  await harness.prompt(agent, 'Format src/main.ts.', [{ toolCalls: [escalatedFormat('format_rejected')] }, { text: 'The user declined.' }]);
  harness.approvalAnswer = undefined; // no answerer claims the question: the service fails closed
  await harness.prompt(agent, 'Try once more.', [{ toolCalls: [escalatedFormat('format_unanswered')] }, { text: 'Nobody answered.' }]);
  assertScriptPlayed(harness);

  for (const [callId, outcome] of [
    ['format_rejected', 'rejected'],
    ['format_unanswered', 'unavailable'],
  ] as const) {
    const result = seen(harness, agent, callId);
    t.diagnostic(`${callId}: model saw: ${result.text}`);
    assert.equal(result.isError, true, `${callId} is an error`);
    assert.equal(toolResultEvent(agent, callId).data.error?.code, 'LSP_ACTION_APPROVAL_UNAVAILABLE', callId);
    const question = eventsOf(agent, 'approval/asked').find((event) => event.data.callId === callId);
    assert.ok(question, `an approval question for ${callId}`);
    const decision = eventsOf(agent, 'approval/decided').find((event) => event.data.id === question.data.id);
    assert.equal(decision?.data.outcome, outcome, `${callId} decided ${outcome}`);
  }
  assert.equal(ws.read(), BROKEN_SOURCE, 'nothing was written');
  assert.deepEqual(harness.ctx.get('lspActions')?.engine.liveServers(), [], 'no server was asked for a refused write');
});

test('workspace-write session: lsp_diagnostics returns the real type error, fresh, as the model sees it', { timeout: 180_000 }, async (t) => {
  const { harness, agent } = await setup(t, 'lsp-actions-agent-diag-', 'workspace-write');

  await harness.prompt(agent, 'Check src/main.ts for errors.', [
    { toolCalls: [{ id: 'diag', name: 'lsp_diagnostics', arguments: { file_path: SOURCE_FILE } }] },
    { text: 'There is one type error.' },
  ]);
  assertScriptPlayed(harness);

  const result = seen(harness, agent, 'diag');
  t.diagnostic(`model saw:\n${result.text}`);
  assert.equal(result.isError, false, result.text);
  assert.match(result.text, /Type 'number' is not assignable to type 'string'/);
  assert.match(result.text, new RegExp(`main\\.ts:${TYPE_ERROR_LINE}:\\d+`), 'one-based path:line:col');
  assert.match(result.text, new RegExp(String(TYPE_ERROR_CODE)), 'the TypeScript error code');
  assert.match(result.text, /\bfresh\b/, 'the freshness state is shown to the model');

  const recorded = harness.toolResult('diag').result;
  assert.equal(recorded.isError, false);
  const value = recorded.value as { files?: Array<{ state?: unknown; diagnostics?: Array<{ code?: unknown; range?: { start?: { line?: unknown } } }> }> };
  const file = value.files?.[0];
  assert.equal(value.files?.length, 1, 'one file was checked');
  assert.equal(file?.state, 'fresh', 'the structured result is fresh');
  const typeError = file?.diagnostics?.find((diagnostic) => diagnostic.code === TYPE_ERROR_CODE);
  assert.ok(typeError, `the structured result lists TS${TYPE_ERROR_CODE}`);
  assert.equal(typeError.range?.start?.line, TYPE_ERROR_LINE - 1, 'structured positions are zero-based');
});
