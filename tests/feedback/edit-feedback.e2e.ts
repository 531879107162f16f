/**
 * Edit feedback in real agent turns: the DSH agent loop with a scripted model (no key, no
 * network), the real sandbox, observation policy and fs services, the harness's own file tools
 * (`dsh-tool-fs`: `read`, `write`, `edit`), this plugin, and a real typescript-language-server.
 * What the model was sent is asserted on the scripted model's requests; files on disk are re-read.
 *
 * Budgets are generous (a loaded machine may take long to start a server); no assertion is timed.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { Plugin } from '@deepseek-ai/cordis';
import type { Agent } from '@deepseek-ai/dsh-agent';
import { CallId } from '@deepseek-ai/dsh-llm';
import type { SandboxMode } from '@deepseek-ai/dsh-sandbox';
import * as toolFs from '@deepseek-ai/dsh-tool-fs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { embeddedTypeScriptServer } from '../../src/presets/embedded-typescript.ts';
import { bashToolPlugin } from '../support/bash-tool.ts';
import { eventTypes, ScriptedAgentHarness, textOf, type ScriptedResponse, type SeenToolResult } from '../support/scripted-agent.ts';
import { createFeedbackWorkspace, GEOMETRY, NOTES, positionOf, REPORT, type FeedbackWorkspace } from './fixtures/feedback-workspace.ts';

/** Budgets no loaded machine should hit: the tests are about what is said, not how fast. */
const SLOW_OK = { editFeedback: { waitMs: 120_000 }, diagnosticsWaitMs: 120_000 };
const TIMEOUT = { timeout: 300_000 };

/** A plugin that does nothing: the harness's own results, for byte comparison. */
const noopPlugin = { name: 'noop', apply: () => undefined } as unknown as Plugin;

interface Setup {
  ws: FeedbackWorkspace;
  harness: ScriptedAgentHarness;
  agent: Agent;
}

async function setup(t: TestContext, options: { config?: Record<string, unknown>; mode?: SandboxMode; plugin?: Plugin; ws?: FeedbackWorkspace; files?: Record<string, string> } = {}): Promise<Setup> {
  const ws = options.ws ?? createFeedbackWorkspace('lsp-actions-feedback-');
  for (const [path, text] of Object.entries(options.files ?? {})) writeFileSync(join(ws.root, path), text);
  let harness: ScriptedAgentHarness | undefined;
  t.after(async () => {
    await harness?.dispose();
    if (!options.ws) ws.remove();
  });
  harness = await ScriptedAgentHarness.start({
    workspace: ws.root,
    sandboxMode: options.mode ?? 'workspace-write',
    pluginConfig: options.config ?? SLOW_OK,
    extraPlugins: [{ plugin: toolFs as unknown as Plugin }, { plugin: bashToolPlugin }],
    ...(options.plugin ? { plugin: options.plugin } : {}),
  });
  const agent = await harness.createAgent(ws.root);
  return { ws, harness, agent };
}

function seen(s: Setup, callId: string): SeenToolResult {
  const result = s.harness.model.seenToolResult(callId);
  assert.ok(result, `the model was sent a result for ${callId}; events: ${eventTypes(s.agent).join(' ')}`);
  return result;
}

/** @returns the lines the feedback appended (everything from the first `LSP:` line) */
function feedbackOf(result: SeenToolResult): string {
  const at = result.text.indexOf('\nLSP: ');
  return at < 0 ? '' : result.text.slice(at + 1);
}

const read = (id: string, file: string): ScriptedResponse => ({ toolCalls: [{ id, name: 'read', arguments: { file_path: file } }] });
const edit = (id: string, file: string, oldString: string, newString: string): ScriptedResponse => ({
  toolCalls: [{ id, name: 'edit', arguments: { file_path: file, old_string: oldString, new_string: newString } }],
});
const done: ScriptedResponse = { text: 'Done.' };

/** A scripted turn that calls bash. */
const bash = (id: string, command: string): ScriptedResponse => ({ toolCalls: [{ id, name: 'bash', arguments: { command } }] });

test('an edit that introduces a type error reports it at path:line:col; the edit that fixes it reports it resolved', TIMEOUT, async (t) => {
  const s = await setup(t);
  await s.harness.ctx.get('lspActions')?.warmedUp?.(s.ws.root);
  await s.harness.prompt(s.agent, 'Break and fix report.ts.', [
    read('read_report', REPORT),
    edit('edit_break', REPORT, '${point.x}', '${pointt.x}'),
    edit('edit_fix', REPORT, '${pointt.x}', '${point.x}'),
    done,
  ]);
  const broken = seen(s, 'edit_break');
  t.diagnostic(`break: ${broken.text}`);
  assert.equal(broken.isError, false);
  assert.match(broken.text, /^The file \S*report\.ts has been updated successfully\.\n/, 'the edit tool\'s own text comes first, unchanged');
  const at = positionOf(s.ws.read(REPORT).replace('${point.x}', '${pointt.x}'), 'pointt');
  const lsp = feedbackOf(broken);
  assert.ok(lsp.startsWith(`LSP: 1 new error — src/report.ts:${at} error Cannot find name 'pointt'.`), lsp);
  assert.ok(lsp.endsWith('[typescript 2552]'), lsp);
  assert.equal(lsp.split('\n').length, 1, 'one problem, one line');

  const fixed = seen(s, 'edit_fix');
  t.diagnostic(`fix: ${fixed.text}`);
  assert.equal(fixed.isError, false);
  // files the server re-published meanwhile (geometry.ts, open since the warm-up) are checked too, and counted
  assert.match(feedbackOf(fixed), /^LSP: no new problems \(1 resolved(, \d+ other files? checked)?\)$/);
  assert.ok(s.ws.read(REPORT).includes('${point.x}'), 'the fix is on disk');
});

test('an edit to a file no server handles keeps the harness result unchanged', TIMEOUT, async (t) => {
  const s = await setup(t);
  await s.harness.prompt(s.agent, 'Edit the notes.', [read('read_notes', NOTES), edit('edit_notes', NOTES, 'Nothing', 'Still nothing'), done]);
  const result = seen(s, 'edit_notes');
  assert.equal(result.isError, false);
  assert.match(result.text, /^The file \S*notes\.md has been updated successfully\.$/);
  assert.ok(s.ws.read(NOTES).includes('Still nothing'));
});

test('a write that creates a new .ts file with an error reports the error', TIMEOUT, async (t) => {
  const s = await setup(t);
  const text = "export const count: number = 'one';\n";
  await s.harness.prompt(s.agent, 'Create extra.ts.', [
    { toolCalls: [{ id: 'write_extra', name: 'write', arguments: { file_path: 'src/extra.ts', content: text } }] },
    done,
  ]);
  const result = seen(s, 'write_extra');
  t.diagnostic(result.text);
  assert.equal(result.isError, false);
  assert.equal(s.ws.read('src/extra.ts'), text);
  assert.equal(
    feedbackOf(result),
    `LSP: src/extra.ts has 1 error (no earlier check to compare with) — src/extra.ts:${positionOf(text, 'count')} error Type 'string' is not assignable to type 'number'. [typescript 2322]`,
  );
});

test('a changed export that breaks another file is reported for that file', TIMEOUT, async (t) => {
  const s = await setup(t);
  await s.harness.ctx.get('lspActions')?.warmedUp?.(s.ws.root);
  await s.harness.prompt(s.agent, 'Rename distance.', [
    read('read_geometry', GEOMETRY),
    read('read_report', REPORT),
    edit('edit_export', GEOMETRY, 'export function distance(', 'export function distanceBetween('),
    done,
  ]);
  const result = seen(s, 'edit_export');
  t.diagnostic(result.text);
  assert.equal(result.isError, false);
  const lsp = feedbackOf(result);
  assert.ok(lsp.startsWith('LSP: 1 new error'), lsp);
  const importAt = positionOf(s.ws.read(REPORT), 'distance');
  assert.match(lsp, new RegExp(`src/report\\.ts:${importAt} error Module '"\\./geometry"' has no exported member (named )?'distance'`), lsp);
  assert.ok(!lsp.includes('src/geometry.ts:'), 'the edited file itself has no new problem');
});

test('an export rename breaking a file the agent never read is reported for that file, never "no new problems"', TIMEOUT, async (t) => {
  const s = await setup(t);
  await s.harness.ctx.get('lspActions')?.warmedUp?.(s.ws.root);
  await s.harness.prompt(s.agent, 'Rename distance.', [
    read('read_geometry', GEOMETRY),
    edit('rename_unread', GEOMETRY, 'export function distance(', 'export function distanceBetween('),
    done,
  ]);
  const lsp = feedbackOf(seen(s, 'rename_unread'));
  t.diagnostic(lsp);
  assert.ok(!lsp.startsWith('LSP: no new problems'), lsp);
  assert.match(lsp, /^LSP: 1 new error — src\/report\.ts:1:\d+ error Module '"\.\/geometry"' has no exported member (named )?'distance'/);
});

test('a shell `mv` that breaks an import is judged at that call, seen through the workspace watcher; moving it back resolves it', TIMEOUT, async (t) => {
  const s = await setup(t);
  await s.harness.ctx.get('lspActions')?.warmedUp?.(s.ws.root);
  await s.harness.prompt(s.agent, 'Move geometry.', [bash('mv_away', `mv ${GEOMETRY} src/geo.ts`), done]);
  const away = feedbackOf(seen(s, 'mv_away'));
  t.diagnostic(away);
  assert.match(away, /^LSP: 1 new error; src\/geo\.ts has no problems \(no earlier check to compare with\)\n/);
  assert.match(away, /\nsrc\/report\.ts:1:\d+ error Cannot find module '\.\/geometry' or its corresponding type declarations\. \[typescript 2307\]$/);
  await s.harness.prompt(s.agent, 'Move it back.', [bash('mv_back', `mv src/geo.ts ${GEOMETRY}`), done]);
  const back = feedbackOf(seen(s, 'mv_back'));
  t.diagnostic(back);
  assert.match(back, /^LSP: no new problems \(1 resolved(, \d+ other files? checked)?\)/);
  await s.harness.prompt(s.agent, 'List.', [bash('ls', 'ls src'), done]);
  assert.equal(feedbackOf(seen(s, 'ls')), '', 'a command that changed nothing gets no verdict');
});

test('lsp_format of a file the agent never read gets a verdict (our write path tells edit feedback, not fs/observed)', TIMEOUT, async (t) => {
  // no watcher: the verdict must come from the write path itself, not from the watcher seeing the file change
  const s = await setup(t, { files: { 'src/messy.ts': 'export  const  answer:number=42\n' }, config: { ...SLOW_OK, editFeedback: { waitMs: 120_000, watchChanges: false } } });
  await s.harness.ctx.get('lspActions')?.warmedUp?.(s.ws.root);
  await s.harness.prompt(s.agent, 'Format messy.ts.', [{ toolCalls: [{ id: 'format', name: 'lsp_format', arguments: { file_path: 'src/messy.ts' } }] }, done]);
  const result = seen(s, 'format');
  t.diagnostic(result.text);
  assert.equal(result.isError, false);
  assert.notEqual(s.ws.read('src/messy.ts'), 'export  const  answer:number=42\n', 'the file was formatted');
  assert.match(feedbackOf(result), /^LSP: no new problems/);
});

test('a language server killed before the edit: the write succeeds and its result says the check failed', TIMEOUT, async (t) => {
  const server = { ...embeddedTypeScriptServer(), maxRestarts: 0 };
  const s = await setup(t, { config: { ...SLOW_OK, embeddedTypeScript: false, servers: { typescript: server } } });
  const engine = s.harness.ctx.get('lspActions')?.engine;
  assert.ok(engine);
  // the read starts the server (a background check of the file read)
  await s.harness.prompt(s.agent, 'Read report.ts.', [read('read_report', REPORT), done]);
  const live = await pollUntil(() => engine.liveServers().find((info) => info.state === 'ready' && info.pid !== undefined));
  process.kill(live.pid as number, 'SIGKILL');
  await pollUntil(() => (engine.liveServers().some((info) => info.pid === live.pid) ? undefined : true));

  await s.harness.prompt(s.agent, 'Break report.ts.', [edit('edit_after_kill', REPORT, '${point.x}', '${pointt.x}'), done]);
  const result = seen(s, 'edit_after_kill');
  t.diagnostic(result.text);
  assert.equal(result.isError, false, 'the write itself succeeded');
  assert.ok(s.ws.read(REPORT).includes('${pointt.x}'), 'the edit is on disk');
  assert.match(result.text, /^The file \S*report\.ts has been updated successfully\.\n/);
  // the check's failure comes first; with the server gone, its dependents cannot be listed either
  assert.match(feedbackOf(result), /^LSP: check of src\/report\.ts failed: .+ \(LSP_ACTION_SERVER_(GAVE_UP|CRASHED)\)(; dependents of src\/report\.ts not known \(their server cannot list them\))?$/);
});

/** The script both runs of the byte comparison play. */
function sameScript(): ScriptedResponse[] {
  return [
    read('r', REPORT),
    edit('e', REPORT, '${point.x}', '${pointt.x}'),
    { toolCalls: [{ id: 'w', name: 'write', arguments: { file_path: 'src/extra.ts', content: "export const count: number = 'one';\n" } }] },
    done,
  ];
}

test('feedback disabled by config: results are byte-identical to the harness\'s own', TIMEOUT, async (t) => {
  const ws = createFeedbackWorkspace('lsp-actions-feedback-off-');
  t.after(() => ws.remove());
  const texts = async (plugin: Plugin | undefined, config: Record<string, unknown>, tt: TestContext): Promise<string[]> => {
    ws.reset();
    const s = await setup(tt, { ws, config, ...(plugin ? { plugin } : {}) });
    await s.harness.prompt(s.agent, 'Go.', sameScript());
    const out = ['r', 'e', 'w'].map((id) => JSON.stringify(seen(s, id)));
    await s.harness.dispose();
    return out;
  };
  const own = await texts(noopPlugin, {}, t);
  const disabled = await texts(undefined, { ...SLOW_OK, editFeedback: { enabled: false } }, t);
  const enabled = await texts(undefined, SLOW_OK, t);
  assert.deepEqual(disabled, own, 'disabled: every result exactly as without the plugin');
  assert.notDeepEqual(enabled, own, 'enabled: the results differ (the comparison can fail)');
});

test('read-only sessions are untouched: the refused edit gets no feedback and no background check runs', TIMEOUT, async (t) => {
  const s = await setup(t, { mode: 'read-only' });
  const engine = s.harness.ctx.get('lspActions')?.engine;
  await s.harness.prompt(s.agent, 'Try.', [read('read_ro', REPORT), edit('edit_ro', REPORT, '${point.x}', '${pointt.x}'), done]);
  const refused = seen(s, 'edit_ro');
  assert.equal(refused.isError, true);
  assert.ok(!refused.text.includes('LSP:'), refused.text);
  assert.deepEqual(engine?.liveServers(), [], 'a read-only session starts no background check');
});

test('agentless writes are untouched; disposing the plugin removes the listener, so later edits get the harness result only', TIMEOUT, async (t) => {
  const s = await setup(t);
  await s.harness.prompt(s.agent, 'Break.', [read('read_report', REPORT), edit('edit_on', REPORT, '${point.x}', '${pointt.x}'), done]);
  assert.ok(feedbackOf(seen(s, 'edit_on')).startsWith('LSP: 1 new error'));
  // agentless writes (no session to give feedback to) are untouched
  const text = "export const count: number = 'one';\n";
  const agentless = await s.harness.ctx.tools.execute({
    callId: CallId('agentless_write'),
    name: 'write',
    arguments: { file_path: `${s.ws.root}/src/extra.ts`, content: text },
    signal: new AbortController().signal,
  });
  assert.equal(agentless.isError, false, textOf(agentless.content));
  assert.equal(s.ws.read('src/extra.ts'), text);
  assert.match(textOf(agentless.content), /^<path>\S*extra\.ts<\/path>\n<type>file<\/type>\n<content>\nCreated file\n<\/content>$/);

  await s.harness.pluginFiber.dispose();
  await s.harness.prompt(s.agent, 'Fix.', [edit('edit_off', REPORT, '${pointt.x}', '${point.x}'), done]);
  const after = seen(s, 'edit_off');
  assert.match(after.text, /^The file \S*report\.ts has been updated successfully\.$/);
});

/** Polls `probe` until it returns a value (the machine may be loaded: no fixed sleeps). */
async function pollUntil<T>(probe: () => T | undefined, timeoutMs = 120_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
