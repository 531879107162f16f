/**
 * The example's `start.js` beyond the happy path (the install is the one the ACP test made):
 * SIGTERM while a language server runs → the same cleanup as end of input, exit 143; a protocol
 * server's own shutdown racing the boot → exit 0; a row that cannot be loaded → the row named on
 * stderr, nothing on stdout (the protocol channel), exit 2.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { commandLine, survivors } from '../composition/fixtures/processes.ts';
import { createTsWorkspace, type TsWorkspace } from '../composition/fixtures/workspace.ts';
import { AcpAgentProcess } from './fixtures/acp-agent-process.ts';
import { type InstalledExample, installExample } from './fixtures/install-example.ts';
import { findReport, languageServers, resultOf, scriptPrompt } from './fixtures/model-report.ts';

let example: InstalledExample;
let ws: TsWorkspace;

describe('examples/acp start.js', { timeout: 900_000 }, () => {
  before(
    () => {
      example = installExample();
      ws = createTsWorkspace('lsp-actions-acp-start-');
    },
    { timeout: 900_000 },
  );
  after(() => ws?.remove());

  it('SIGTERM disposes every agent and language server, then exits 143', async () => {
    const agent = await AcpAgentProcess.start({
      startScript: example.startScript,
      config: example.acpConfig,
      cwd: ws.root,
      env: { DSH_PERMISSION_MODE: 'read-only', DEEPSEEK_API_KEY: '', DEEPSEEK_BASE_URL: 'http://127.0.0.1:9' },
    });
    try {
      await agent.connection.initialize({ protocolVersion: agent.protocolVersion, clientCapabilities: {} });
      const { sessionId } = await agent.connection.newSession({ cwd: ws.root, mcpServers: [] });
      const seen = agent.messages(sessionId).length;
      await agent.connection.prompt({ sessionId, prompt: [{ type: 'text', text: scriptPrompt([{ id: 'd1', name: 'lsp_diagnostics', arguments: { file_path: 'src/main.ts' } }]) }] });
      assert.match(resultOf(findReport(agent.messages(sessionId).slice(seen)), 'd1').text, /Type 'number' is not assignable/);
      const servers = languageServers(agent.child.pid as number);
      assert.ok(servers.length > 0, 'a language server runs');

      agent.child.kill('SIGTERM');
      const exit = await agent.exited();
      assert.deepEqual(exit, { code: 143, signal: null }, `exit after cleanup, not death by signal; stderr:\n${agent.stderr}`);
      assert.match(agent.stderr, /acp-agent: SIGTERM; shutting down/);
      const alive = await survivors(servers, 10_000);
      assert.deepEqual(
        alive.map((pid) => `${pid} ${commandLine(pid)}`),
        [],
        'every language-server process is gone',
      );
    } finally {
      agent.kill();
    }
  });

  it('a protocol shutdown while rows are still loading is not a boot failure: exit 0', () => {
    // The SDK server answers `shutdown` by disposing the root itself; sent right behind
    // `initialize`, that lands while the Loader is still mounting rows.
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { cwd: ws.root, provider: 'deepseek-official', model: 'deepseek-v4-flash' } },
      { jsonrpc: '2.0', id: 2, method: 'shutdown', params: {} },
    ];
    const result = spawnSync(process.execPath, [example.startScript, example.sdkConfig], {
      cwd: ws.root,
      encoding: 'utf8',
      input: lines.map((line) => `${JSON.stringify(line)}\n`).join(''),
      timeout: 120_000,
      env: { ...process.env, DEEPSEEK_API_KEY: '', DEEPSEEK_BASE_URL: 'http://127.0.0.1:9' },
    });
    assert.equal(result.status, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /did not boot/);
    const answers = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: number; result?: unknown });
    // The server dispatches requests concurrently: the answers may come in either order.
    assert.deepEqual(
      answers.map((answer) => [answer.id, answer.result !== undefined]).sort(([a], [b]) => Number(a) - Number(b)),
      [
        [1, true],
        [2, true],
      ],
    );
  });

  it('a row that cannot be loaded: named on stderr, nothing on stdout, exit 2', () => {
    const broken = join(dirname(example.acpConfig), 'cordis.broken.yml');
    writeFileSync(broken, "- id: lsp-actions\n  name: dsh-lsp-actions\n- id: missing\n  name: '@deepseek-ai/dsh-no-such-package'\n");
    const result = spawnSync(process.execPath, [example.startScript, broken], { cwd: ws.root, encoding: 'utf8', input: '', timeout: 120_000 });
    assert.equal(result.status, 2, result.stderr);
    assert.equal(result.stdout, '', 'stdout stays clean for the protocol');
    assert.match(result.stderr, /did not boot: .*@deepseek-ai\/dsh-no-such-package/);
  });
});
