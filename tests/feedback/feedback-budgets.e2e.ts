/**
 * Issue 18: edit feedback's budget running out is the agent's deadline, never the server failing.
 * A real agent turn (scripted model, the harness's own `edit` tool, a real typescript-language-
 * server) with a 1 ms feedback budget — so every verdict's budget expires while tsserver works,
 * as the 3 s budget does under load — makes ten edits in a row: each verdict says `pending` (or
 * fresh), never failed, `lsp_format` and `lsp_diagnostics` afterwards work, and the server
 * process is the same one throughout (never stopped, never given up on).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import type { Plugin } from '@deepseek-ai/cordis';
import * as toolFs from '@deepseek-ai/dsh-tool-fs';
import { processTree } from '../lsp/real-server-fixture.ts';
import { ScriptedAgentHarness, type ScriptedResponse } from '../support/scripted-agent.ts';
import { createFeedbackWorkspace, REPORT } from './fixtures/feedback-workspace.ts';

/** @returns pids of typescript-language-server processes below this test process */
async function tslsProcesses(): Promise<number[]> {
  const out: number[] = [];
  for (const pid of (await processTree(process.pid)).slice(1)) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes('typescript-language-server')) out.push(pid);
  }
  return out.sort();
}

const read = (id: string, file: string): ScriptedResponse => ({ toolCalls: [{ id, name: 'read', arguments: { file_path: file } }] });
const edit = (id: string, oldString: string, newString: string): ScriptedResponse => ({
  toolCalls: [{ id, name: 'edit', arguments: { file_path: REPORT, old_string: oldString, new_string: newString } }],
});

test('ten edits whose 1 ms feedback budgets all expire: pending verdicts, and the server is never stopped', { timeout: 600_000 }, async (t) => {
  const ws = createFeedbackWorkspace('lsp-actions-budgets-');
  const harness = await ScriptedAgentHarness.start({
    workspace: ws.root,
    sandboxMode: 'workspace-write',
    pluginConfig: { editFeedback: { waitMs: 1 }, diagnosticsWaitMs: 120_000 },
    extraPlugins: [{ plugin: toolFs as unknown as Plugin }],
  });
  t.after(async () => {
    await harness.dispose();
    ws.remove();
  });
  const agent = await harness.createAgent(ws.root);
  await harness.prompt(agent, 'Warm up.', [{ toolCalls: [{ id: 'warm', name: 'lsp_diagnostics', arguments: { file_path: REPORT } }] }, { text: 'ok' }]);
  const before = await tslsProcesses();
  assert.equal(before.length, 1, 'one typescript-language-server');

  const steps: ScriptedResponse[] = [read('r', REPORT)];
  for (let i = 0; i < 10; i++) {
    steps.push(edit(`e${i}`, i === 0 ? 'const d =' : `const d${i - 1} =`, `const d${i} =`));
    steps.push(edit(`f${i}`, `d${i}, point`, `origin, point`));
  }
  steps.push({ toolCalls: [{ id: 'fmt', name: 'lsp_format', arguments: { file_path: REPORT } }] });
  steps.push({ toolCalls: [{ id: 'diag', name: 'lsp_diagnostics', arguments: { file_path: REPORT } }] });
  steps.push({ text: 'Done.' });
  await harness.prompt(agent, 'Rename d ten times.', steps);

  const verdicts: string[] = [];
  for (let i = 0; i < 10; i++) {
    const result = harness.model.seenToolResult(`e${i}`);
    assert.ok(result, `e${i} was answered`);
    assert.equal(result.isError, false, result.text);
    const feedback = result.text.slice(result.text.indexOf('\nLSP: ') + 1);
    verdicts.push(feedback.split('\n')[0] ?? '');
    assert.doesNotMatch(result.text, /failed|gave up|keeps failing|SERVER_/i, result.text);
  }
  t.diagnostic(verdicts.join('\n'));
  assert.ok(verdicts.some((v) => /pending/.test(v)), 'the 1 ms budgets ran out');
  const format = harness.model.seenToolResult('fmt');
  assert.equal(format?.isError, false, format?.text);
  const diag = harness.model.seenToolResult('diag');
  assert.equal(diag?.isError, false, diag?.text);
  assert.match(diag?.text ?? '', /\bfresh\b/, diag?.text);
  assert.deepEqual(await tslsProcesses(), before, 'the same server process throughout');
});
