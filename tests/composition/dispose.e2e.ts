/**
 * Every registration is reversible (HMR safety): the plugin is mounted with `ctx.plugin(...)`
 * next to the real harness services, `lsp_diagnostics` starts a real typescript-language-server,
 * and disposing only the plugin's fiber removes every `lsp_*` tool and the `lspActions` service
 * and stops the server's whole process tree, while the harness services stay up. Mounting the
 * plugin again brings the tools back.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Plugin } from '@deepseek-ai/cordis';
import { CallId } from '@deepseek-ai/dsh-llm';
import { FIBER_ACTIVE, FIBER_DISPOSED } from '../support/loader-boot.ts';
import { ScriptedAgentHarness, textOf } from '../support/scripted-agent.ts';
import { LSP_TOOL_NAMES } from './fixtures/driver.ts';
import { commandLine, processTree, survivors } from './fixtures/processes.ts';
import { createTsWorkspace, SOURCE_FILE } from './fixtures/workspace.ts';

/** Default `servers.*.shutdownTimeoutMs`. */
const SERVER_SHUTDOWN_TIMEOUT_MS = 3_000;

test('disposing the plugin fiber removes every lsp_* tool and stops every language-server process', { timeout: 180_000 }, async (t) => {
  const ws = createTsWorkspace('lsp-actions-dispose-');
  let started: ScriptedAgentHarness | undefined;
  t.after(async () => {
    await started?.dispose();
    ws.remove();
  });
  const harness = await ScriptedAgentHarness.start({ workspace: ws.root, sandboxMode: 'workspace-write' });
  started = harness;
  const { ctx } = harness;

  const registered = ctx.tools.schemas().map((schema) => schema.name);
  for (const tool of LSP_TOOL_NAMES) assert.ok(registered.includes(tool), `${tool} is registered`);
  assert.equal(registered.filter((name) => name.startsWith('lsp_')).length, LSP_TOOL_NAMES.length, 'no lsp_* tool beyond the list');

  // A diagnostics call for a live agent starts the server.
  const agent = await harness.createAgent(ws.root);
  const result = await ctx.tools.execute({
    callId: CallId('dispose-diagnostics'),
    name: 'lsp_diagnostics',
    arguments: { file_path: SOURCE_FILE },
    agent,
    signal: AbortSignal.timeout(90_000),
  });
  assert.equal(result.isError, false, textOf(result.content));
  const lspActions = ctx.get('lspActions');
  assert.ok(lspActions, 'the lspActions service is provided');
  const servers = lspActions.engine.liveServers();
  const pids = servers.map((server) => server.pid).filter((pid): pid is number => typeof pid === 'number');
  assert.ok(pids.length > 0, `a server with a pid is live (${JSON.stringify(servers)})`);
  const tree = pids.flatMap((pid) => processTree(pid));
  t.diagnostic(`server processes: ${tree.map((pid) => `${pid} ${commandLine(pid).slice(0, 100)}`).join(' | ')}`);

  // Dispose only the plugin: an orderly stop (shutdown → exit), not a wait for the shutdown timeout.
  const disposing = Date.now();
  await harness.pluginFiber.dispose();
  const disposeMs = Date.now() - disposing;
  t.diagnostic(`plugin disposed in ${disposeMs} ms`);
  assert.ok(disposeMs < SERVER_SHUTDOWN_TIMEOUT_MS, `disposal took ${disposeMs} ms: it waited out the server shutdown timeout`);
  assert.equal(harness.pluginFiber.state, FIBER_DISPOSED);
  const left = ctx.tools.schemas().map((schema) => schema.name);
  assert.deepEqual(left.filter((name) => name.startsWith('lsp_')), [], 'no lsp_* tool remains in the schemas');
  for (const tool of LSP_TOOL_NAMES) assert.equal(ctx.tools.get(tool), undefined, `${tool} cannot be looked up`);
  assert.equal(ctx.get('lspActions'), undefined, 'the lspActions service is withdrawn');
  const alive = await survivors(tree, 5_000);
  assert.deepEqual(alive.map((pid) => `${pid} ${commandLine(pid)}`), [], 'the server process tree is gone');

  // The harness is untouched, and a remount registers the tools again.
  const afterDispose = await ctx.tools.execute({
    callId: CallId('dispose-after'),
    name: 'lsp_diagnostics',
    arguments: { file_path: SOURCE_FILE },
    agent,
    signal: AbortSignal.timeout(10_000),
  });
  assert.equal(afterDispose.isError, true, 'a call after dispose finds no tool');
  const plugin = (await import('../../src/index.ts')) as Plugin;
  const again = await ctx.plugin(plugin, {});
  assert.equal(again.state, FIBER_ACTIVE);
  const remounted = ctx.tools.schemas().map((schema) => schema.name);
  for (const tool of LSP_TOOL_NAMES) assert.ok(remounted.includes(tool), `${tool} is registered again after remount`);
  await again.dispose();
  assert.deepEqual(ctx.tools.schemas().filter((schema) => schema.name.startsWith('lsp_')), []);
});
