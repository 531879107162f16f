/**
 * Never harming the write: the real tool pipeline (`dsh-tools` ToolRuntime, `dsh-fs-local`) with
 * a tool that observes what it "wrote" as the harness's tools do, and a runner / engine that fail
 * on demand (the deterministic edge cases; real servers are in edit-feedback.e2e.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Context } from '@deepseek-ai/cordis';
import type { FsVersion } from '@deepseek-ai/dsh-fs';
import { LocalFileSystem } from '@deepseek-ai/dsh-fs-local';
import { CallId } from '@deepseek-ai/dsh-llm';
import { SystemPrompt } from '@deepseek-ai/dsh-system-prompt';
import { defineTool, ToolRuntime, type ToolExecutionResult } from '@deepseek-ai/dsh-tools';
import { resolveConfig } from '../../src/config.ts';
import { startEditFeedback, type EditFeedbackDeps } from '../../src/feedback/edit-feedback.ts';
import { DiagnosticsMemory } from '../../src/tools/diagnostics-memory.ts';
import { textOf } from '../support/scripted-agent.ts';

interface Bed {
  ctx: Context;
  root: string;
  logs: string[];
  call(name: string, agentless?: boolean): Promise<ToolExecutionResult>;
}

async function bed(t: TestContext, deps: Partial<Pick<EditFeedbackDeps, 'runner' | 'engine'>>): Promise<Bed> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'lsp-actions-feedback-spec-')));
  writeFileSync(join(root, 'a.ts'), 'export const a = 1;\n');
  const ctx = new Context();
  t.after(async () => {
    await ctx.fiber.dispose();
    rmSync(root, { recursive: true, force: true });
  });
  await ctx.plugin(SystemPrompt);
  await ctx.plugin(ToolRuntime);
  await ctx.plugin(LocalFileSystem, { cwd: root });
  const logs: string[] = [];
  const engine: EditFeedbackDeps['engine'] = {
    onDiagnostics: () => () => undefined,
    serversFor: (path) => (path.endsWith('.ts') ? ['typescript'] : []),
    filesChanged: async () => undefined,
    diagnosticsMany: async () => [],
    fileImporters: async () => [],
    projectFiles: async () => undefined,
    ...deps.engine,
  };
  const runner: EditFeedbackDeps['runner'] = deps.runner ?? { run: async () => { throw new Error('no runner in this test'); } };
  await ctx.plugin({
    name: 'feedback-under-test',
    inject: ['tools', 'fs'],
    apply: (c: Context) => {
      startEditFeedback(c, { runner, engine, config: resolveConfig({}), memory: new DiagnosticsMemory(8), log: (level, message) => logs.push(`${level} ${message}`) });
    },
  });
  // A write tool as the harness's: observes the written target with its exec as actor.
  for (const name of ['edit', 'edit_then_fail']) {
    ctx.tools.register(
      defineTool({
        name,
        description: 'test write',
        parameters: { file_path: { type: 'string', required: true } },
        output: { schema: { type: 'object', additionalProperties: false, properties: { ok: { type: 'boolean', required: true } } }, render: () => [{ type: 'text', text: 'edited' }] },
        async execute(args, exec) {
          const target = await ctx.fs.resolve((args as { file_path: string }).file_path, { cwd: root });
          ctx.emit('fs/observed', target, { kind: 'present', version: 'v2' as FsVersion }, exec);
          if (name === 'edit_then_fail') throw new Error('the write failed after all');
          return { ok: true };
        },
      }),
    );
  }
  const agent = { id: 's1', session: { header: { id: 's1', cwd: root }, events: [] } };
  let n = 0;
  return {
    ctx,
    root,
    logs,
    call: (name, agentless = false) =>
      ctx.tools.execute({
        callId: CallId(`c${++n}`),
        name: name === 'notes' ? 'edit' : name,
        arguments: { file_path: name === 'notes' ? 'notes.md' : 'a.ts' },
        ...(agentless ? {} : { agent: agent as never }),
        signal: new AbortController().signal,
      }),
  };
}

test('a failing check keeps the result and appends one line; the failure is logged once at warn', async (t) => {
  const b = await bed(t, { runner: { run: async () => { throw new Error('server exploded'); } } });
  const first = await b.call('edit');
  assert.equal(first.isError, false);
  assert.equal(first.content.length, 2);
  assert.equal(textOf(first.content.slice(0, 1)), 'edited', 'the tool\'s own content is first and unchanged');
  assert.equal(textOf(first.content.slice(1)), 'LSP: check of a.ts failed: server exploded (LSP_ACTION_SERVER_FAILED)');
  await b.call('edit');
  const failures = b.logs.filter((line) => line.includes('server exploded'));
  assert.deepEqual(failures.map((line) => line.split(' ')[0]), ['warn', 'debug'], 'the same failure is a warning once, then debug');
});

test('a throw inside the feedback itself becomes a one-line note, never an error result', async (t) => {
  const b = await bed(t, { engine: { onDiagnostics: () => { throw new Error('listener table broken'); } } as never });
  const result = await b.call('edit');
  assert.equal(result.isError, false);
  assert.equal(textOf(result.content), 'edited\nLSP: check failed (listener table broken); the write itself succeeded');
});

test('failed writes, agentless writes and files no server handles get nothing', async (t) => {
  let asked = 0;
  const b = await bed(t, { runner: { run: async () => { asked++; throw new Error('not expected'); } } });
  const failed = await b.call('edit_then_fail');
  assert.equal(failed.isError, true);
  assert.ok(!textOf(failed.content).includes('LSP:'), textOf(failed.content));
  const agentless = await b.call('edit', true);
  assert.equal(textOf(agentless.content), 'edited');
  const notes = await b.call('notes');
  assert.equal(textOf(notes.content), 'edited');
  assert.equal(asked, 0, 'no check was run for any of them');
});
