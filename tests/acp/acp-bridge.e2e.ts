/**
 * The shipped ACP composition (examples/acp) end to end, as an editor uses it: this package packed
 * with `npm pack`, the example installed from that tarball with the official bridge
 * `@deepseek-ai/dsh-acp@0.0.1-rc.1` and the rc.8 agent spine from the npm registry (npm cache,
 * `--prefer-offline`), started with the example's `start.js` in a read-only deployment, and driven
 * over stdio by the ACP SDK's `ClientSideConnection`. The model is the keyless scripted model of
 * the test overlay (fixtures/scripted-model.js); it reports back, as its final text, every tool
 * result it was sent — so what the model saw is asserted through the ACP wire.
 *
 * Real everything else: the bridge, the harness services, typescript-language-server, the files.
 * Needs `npm run build` first and the npm registry (or a warm npm cache).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LSP_TOOL_NAMES } from '../composition/fixtures/driver.ts';
import { commandLine, survivors } from '../composition/fixtures/processes.ts';
import { BROKEN_SOURCE, createTsWorkspace, FORMATTED_LINES, TYPE_ERROR_COLUMN, TYPE_ERROR_LINE, type TsWorkspace } from '../composition/fixtures/workspace.ts';
import { AcpAgentProcess } from './fixtures/acp-agent-process.ts';
import { type InstalledExample, installExample } from './fixtures/install-example.ts';
import { findReport, languageServers, type ModelReport, resultOf, type ScriptCall, scriptPrompt } from './fixtures/model-report.ts';

const FORMATTED = `${FORMATTED_LINES.join('\n')}\n`;
const ALLOW_FILE = 'src/fmt-allow.ts';
const REJECT_FILE = 'src/fmt-reject.ts';
const READ_ONLY_FILE = 'src/fmt-read-only.ts';
/** A second type error written into main.ts from outside the agent, between two checks. */
const CHANGED_SOURCE = 'export const flag: boolean = "yes"\n';

let example: InstalledExample;
let ws: TsWorkspace;
let agent: AcpAgentProcess;
let sessionId: string;
let serverTree: number[] = [];

/**
 * Sends one prompt whose script makes the model call `calls`, then report what it saw.
 * @param calls the tool calls of the model's first response
 * @returns the model's report, parsed from the final assistant text the client received
 */
async function promptWithCalls(calls: ScriptCall[]): Promise<ModelReport> {
  const seen = agent.messages(sessionId).length;
  const { stopReason } = await agent.connection.prompt({ sessionId, prompt: [{ type: 'text', text: scriptPrompt(calls) }] });
  assert.equal(stopReason, 'end_turn', `the turn completed (stderr: ${agent.stderr})`);
  return findReport(agent.messages(sessionId).slice(seen));
}

describe('examples/acp: an ACP client drives a DSH agent that uses the lsp_* tools', { timeout: 900_000 }, () => {
  before(
    async () => {
      example = installExample();
      ws = createTsWorkspace('lsp-actions-acp-ws-');
      for (const file of [ALLOW_FILE, REJECT_FILE, READ_ONLY_FILE]) writeFileSync(join(ws.root, file), BROKEN_SOURCE);
      agent = await AcpAgentProcess.start({
        startScript: example.startScript,
        config: example.acpConfig,
        cwd: ws.root,
        // Read-only deployment; no key, and a refusing loopback endpoint should anything bypass the script.
        env: { DSH_PERMISSION_MODE: 'read-only', DEEPSEEK_API_KEY: '', DEEPSEEK_BASE_URL: 'http://127.0.0.1:9' },
      });
    },
    { timeout: 900_000 },
  );

  after(() => {
    agent?.kill();
    ws?.remove();
  });

  it('initialize and session/new are answered by the official bridge', async (t) => {
    t.diagnostic(`npm install of the example took ${example.installMs} ms`);
    const init = await agent.connection.initialize({ protocolVersion: agent.protocolVersion, clientCapabilities: {} });
    assert.equal(init.protocolVersion, agent.protocolVersion);
    assert.equal(init.agentInfo?.name, 'deepseek-harness-acp');
    const session = await agent.connection.newSession({ cwd: ws.root, mcpServers: [] });
    assert.match(session.sessionId, /^[0-9a-f-]{36}$/);
    sessionId = session.sessionId;
  });

  it('a write in the read-only session without escalation is refused before any language server starts', async () => {
    const report = await promptWithCalls([{ id: 'ro-1', name: 'lsp_format', arguments: { file_path: READ_ONLY_FILE } }]);
    for (const tool of LSP_TOOL_NAMES) assert.ok(report.tools.includes(tool), `the model is offered ${tool}; offered: ${report.tools.join(', ')}`);
    const refusal = resultOf(report, 'ro-1');
    assert.equal(refusal.isError, true);
    assert.match(refusal.text, /\[sandbox: file access denied under read-only mode\] lsp_format changes files/);
    assert.match(refusal.text, /nothing was written/);
    assert.equal(agent.permissionRequests.length, 0, 'no escalation was asked for, so the client was asked nothing');
    assert.equal(readFileSync(join(ws.root, READ_ONLY_FILE), 'utf8'), BROKEN_SOURCE);
    assert.deepEqual(languageServers(agent.child.pid as number), [], 'no language server was started');
  });

  it("lsp_diagnostics: the model sees the real, fresh error — also after the file changed behind the agent's back", async () => {
    const first = resultOf(await promptWithCalls([{ id: 'diag-1', name: 'lsp_diagnostics', arguments: { file_path: 'src/main.ts' } }]), 'diag-1');
    assert.equal(first.isError, false, first.text);
    assert.match(first.text, /Type 'number' is not assignable to type 'string'/);
    assert.match(first.text, new RegExp(`src/main\\.ts:${TYPE_ERROR_LINE}:${TYPE_ERROR_COLUMN}`));
    assert.match(first.text, /\(fresh\)/);

    serverTree = languageServers(agent.child.pid as number);
    assert.ok(serverTree.length > 0, 'typescript-language-server runs under the agent process');

    writeFileSync(ws.file, CHANGED_SOURCE); // an edit from outside the agent
    const second = resultOf(await promptWithCalls([{ id: 'diag-2', name: 'lsp_diagnostics', arguments: { file_path: 'src/main.ts' } }]), 'diag-2');
    assert.match(second.text, /Type 'string' is not assignable to type 'boolean'/);
    assert.doesNotMatch(second.text, /Type 'number' is not assignable/, 'the old error is not reported for the new text');
    assert.match(second.text, /\(fresh\)/);
  });

  it('an escalated lsp_format asks the client (session/request_permission); allow once → the file is formatted', async () => {
    agent.permissionAnswer = 'allow-once';
    const asked = agent.permissionRequests.length;
    const report = await promptWithCalls([
      { id: 'fmt-allow', name: 'lsp_format', arguments: { file_path: ALLOW_FILE, sandbox_permissions: 'workspace-write', justification: 'the user asked to format this file' } },
    ]);
    const requests = agent.permissionRequests.slice(asked);
    assert.equal(requests.length, 1, 'exactly one permission request');
    assert.equal(requests[0]?.sessionId, sessionId);
    assert.equal(requests[0]?.toolCall.toolCallId, 'fmt-allow');
    assert.deepEqual(
      requests[0]?.options.map((option) => [option.optionId, option.kind]),
      [
        ['allow-once', 'allow_once'],
        ['reject-once', 'reject_once'],
      ],
    );
    const result = resultOf(report, 'fmt-allow');
    assert.equal(result.isError, false, result.text);
    assert.match(result.text, /^Formatted src\/fmt-allow\.ts/);
    assert.equal(readFileSync(join(ws.root, ALLOW_FILE), 'utf8'), FORMATTED, 'the file on disk is formatted');
  });

  it('reject → the file is unchanged and the model is told why', async () => {
    agent.permissionAnswer = 'reject-once';
    const asked = agent.permissionRequests.length;
    const report = await promptWithCalls([
      { id: 'fmt-reject', name: 'lsp_format', arguments: { file_path: REJECT_FILE, sandbox_permissions: 'workspace-write', justification: 'the user asked to format this file' } },
    ]);
    const requests = agent.permissionRequests.slice(asked);
    assert.equal(requests.length, 1, 'exactly one permission request');
    assert.equal(requests[0]?.toolCall.toolCallId, 'fmt-reject');
    const result = resultOf(report, 'fmt-reject');
    assert.equal(result.isError, true);
    assert.match(result.text, /the user rejected escalating this operation/);
    assert.match(result.text, /nothing was written/);
    assert.equal(readFileSync(join(ws.root, REJECT_FILE), 'utf8'), BROKEN_SOURCE, 'the file on disk is unchanged');
  });

  it('the client sees only the final assistant text: agent_message_chunk updates, no tool-call cards (bridge 0.0.1-rc.1)', () => {
    const kinds = new Set(agent.updates.map((update) => update.update.sessionUpdate));
    assert.deepEqual([...kinds], ['agent_message_chunk']);
  });

  it('closing stdin shuts the agent down: exit 0 and no language-server process left', async () => {
    assert.ok(serverTree.length > 0, 'language servers were recorded while running');
    agent.closeStdin();
    let guard: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      agent.exited(),
      new Promise<never>((_, reject) => {
        guard = setTimeout(() => reject(new Error(`the agent did not exit within 60 s of stdin closing; stderr:\n${agent.stderr}`)), 60_000);
      }),
    ]).finally(() => clearTimeout(guard));
    assert.deepEqual(exit, { code: 0, signal: null }, agent.stderr);
    const alive = await survivors(serverTree, 10_000);
    assert.deepEqual(
      alive.map((pid) => `${pid} ${commandLine(pid)}`),
      [],
      'every language-server process is gone',
    );
  });
});
