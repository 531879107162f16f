/**
 * The same agent over the DeepSeek Harness SDK wire: the shipped example's second composition
 * (`examples/acp/cordis.sdk-jsonrpc.yml`, `@deepseek-ai/dsh-sdk-jsonrpc-server` 0.0.1-rc.5 composed
 * with the rc.8 spine through nested npm overrides), installed from the packed tarball exactly as
 * the ACP test installs it (the install is shared), started by the example's `start.js` in a
 * read-only deployment, and driven by a small stdlib-only Python client (fixtures/sdk_client.py).
 *
 * Same checks as over ACP, with one difference the wire dictates: it has no approval method, so
 * an escalated write fails closed — nothing is written and the model is told why.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LSP_TOOL_NAMES } from '../composition/fixtures/driver.ts';
import { commandLine, isRunning, survivors } from '../composition/fixtures/processes.ts';
import { BROKEN_SOURCE, createTsWorkspace, TYPE_ERROR_COLUMN, TYPE_ERROR_LINE, type TsWorkspace } from '../composition/fixtures/workspace.ts';
import { type InstalledExample, installExample } from './fixtures/install-example.ts';
import { findReport, languageServers, type ModelReport, resultOf, type ScriptCall, scriptPrompt } from './fixtures/model-report.ts';
import { type PromptAnswer, SdkClientProcess, type WireEvent } from './fixtures/sdk-client-process.ts';

const ESCALATE_FILE = 'src/fmt-escalate.ts';
const READ_ONLY_FILE = 'src/fmt-read-only.ts';
const SESSION = 'sdk-session-1';
const CHANGED_SOURCE = 'export const flag: boolean = "yes"\n';

let example: InstalledExample;
let ws: TsWorkspace;
let client: SdkClientProcess;
let serverTree: number[] = [];
let lastEvents: WireEvent[] = [];

/**
 * Sends one prompt whose script makes the model call `calls`, then report what it saw.
 * @param calls the tool calls of the model's first response
 * @returns the model's report, from the assistant text of the turn's session events
 */
async function promptWithCalls(calls: ScriptCall[]): Promise<ModelReport> {
  const answer = await client.send<PromptAnswer>({ op: 'prompt', sessionId: SESSION, text: scriptPrompt(calls) });
  assert.equal(answer.error, undefined, `session/prompt failed: ${JSON.stringify(answer.error)}\n${client.stderr}`);
  assert.match(answer.result?.messageId ?? '', /^[0-9a-f-]{36}$/);
  lastEvents = answer.events;
  const end = answer.events.findLast((event) => event.type === 'turn/end');
  assert.deepEqual((end?.data as { reason?: unknown } | undefined)?.reason, { kind: 'completed' });
  return findReport(answer.texts);
}

describe('examples/acp cordis.sdk-jsonrpc.yml: a Python SDK-wire client drives the same agent', { timeout: 900_000 }, () => {
  before(
    async () => {
      const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
      assert.equal(python.status, 0, 'python3 is needed for the SDK wire client');
      example = installExample();
      ws = createTsWorkspace('lsp-actions-sdk-ws-');
      for (const file of [ESCALATE_FILE, READ_ONLY_FILE]) writeFileSync(join(ws.root, file), BROKEN_SOURCE);
      client = await SdkClientProcess.start({
        python: 'python3',
        startScript: example.startScript,
        config: example.sdkConfig,
        cwd: ws.root,
        env: { DSH_PERMISSION_MODE: 'read-only', DEEPSEEK_API_KEY: '', DEEPSEEK_BASE_URL: 'http://127.0.0.1:9' },
      });
    },
    { timeout: 900_000 },
  );

  after(() => {
    client?.kill();
    ws?.remove();
  });

  it('initialize binds the workspace and the model route', async (t) => {
    t.diagnostic(`npm install of the example took ${example.installMs} ms (0: reused)`);
    const answer = await client.send<{ result?: { serverInfo: { name: string } }; error?: unknown }>({
      op: 'initialize',
      params: { cwd: ws.root, provider: 'deepseek-official', model: 'deepseek-v4-flash' },
    });
    assert.equal(answer.error, undefined, JSON.stringify(answer.error));
    assert.equal(answer.result?.serverInfo.name, 'deepseek-harness-sdk-runtime');
  });

  it('a write in the read-only session without escalation is refused before any language server starts', async () => {
    const report = await promptWithCalls([{ id: 'ro-1', name: 'lsp_format', arguments: { file_path: READ_ONLY_FILE } }]);
    for (const tool of LSP_TOOL_NAMES) assert.ok(report.tools.includes(tool), `the model is offered ${tool}`);
    const refusal = resultOf(report, 'ro-1');
    assert.equal(refusal.isError, true);
    assert.match(refusal.text, /\[sandbox: file access denied under read-only mode\] lsp_format changes files/);
    assert.equal(readFileSync(join(ws.root, READ_ONLY_FILE), 'utf8'), BROKEN_SOURCE);
    assert.deepEqual(languageServers(client.agentPid), [], 'no language server was started');
  });

  it('lsp_diagnostics: the model sees the real, fresh error, also after an outside edit', async () => {
    const first = resultOf(await promptWithCalls([{ id: 'diag-1', name: 'lsp_diagnostics', arguments: { file_path: 'src/main.ts' } }]), 'diag-1');
    assert.match(first.text, /Type 'number' is not assignable to type 'string'/);
    assert.match(first.text, new RegExp(`src/main\\.ts:${TYPE_ERROR_LINE}:${TYPE_ERROR_COLUMN}`));
    assert.match(first.text, /\(fresh\)/);
    // The SDK wire streams every session event: the tool call and its result are visible to the client.
    assert.ok(lastEvents.some((event) => event.type === 'tool/result'), `tool/result streamed; got ${lastEvents.map((event) => event.type).join(', ')}`);
    serverTree = languageServers(client.agentPid);
    assert.ok(serverTree.length > 0, 'typescript-language-server runs under the agent process');

    writeFileSync(ws.file, CHANGED_SOURCE);
    const second = resultOf(await promptWithCalls([{ id: 'diag-2', name: 'lsp_diagnostics', arguments: { file_path: 'src/main.ts' } }]), 'diag-2');
    assert.match(second.text, /Type 'string' is not assignable to type 'boolean'/);
    assert.doesNotMatch(second.text, /Type 'number' is not assignable/);
  });

  it('an escalated write fails closed (the wire has no approval method): nothing written, the model told why', async () => {
    const report = await promptWithCalls([
      { id: 'fmt-esc', name: 'lsp_format', arguments: { file_path: ESCALATE_FILE, sandbox_permissions: 'workspace-write', justification: 'the user asked to format this file' } },
    ]);
    const result = resultOf(report, 'fmt-esc');
    assert.equal(result.isError, true);
    assert.match(result.text, /requires approval, but no approval channel is available/);
    assert.match(result.text, /nothing was written/);
    assert.equal(readFileSync(join(ws.root, ESCALATE_FILE), 'utf8'), BROKEN_SOURCE);
    const decided = lastEvents.filter((event) => event.type === 'approval/decided').map((event) => (event.data as { outcome?: string }).outcome);
    assert.deepEqual(decided, ['unavailable'], 'the approval audit on the wire says why');
  });

  it('shutdown: the server answers, the process exits 0, no language-server process is left', async () => {
    assert.ok(serverTree.length > 0, 'language servers were recorded while running');
    const answer = await client.send<{ result?: unknown; exitCode?: number; error?: unknown }>({ op: 'shutdown' });
    assert.deepEqual(answer.result, {}, JSON.stringify(answer));
    assert.equal(answer.exitCode, 0, client.stderr);
    assert.equal(isRunning(client.agentPid), false);
    const alive = await survivors(serverTree, 10_000);
    assert.deepEqual(
      alive.map((pid) => `${pid} ${commandLine(pid)}`),
      [],
      'every language-server process is gone',
    );
  });
});
