/**
 * The MCP face's pure parts: the tool list derived from the registry (escalation pair left out,
 * annotations from the tools' own concurrency declarations), a call's root, the changed-file
 * record, the host call-root binding `sessionRoot` reads, and `tools/call` failures as tool
 * results.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ToolExecutionResult } from '@deepseek-ai/dsh-tools';
import { resolveConfig } from '../../src/config.ts';
import { nodeWorkspaceWatch } from '../../src/documents/node-workspace-watcher.ts';
import { ChangedFiles, merge } from '../../src/mcp/changed-files.ts';
import { lspEditFeedbackTool } from '../../src/mcp/lsp-edit-feedback-tool.ts';
import { escalationArgOf, mcpTools, withoutEscalation } from '../../src/mcp/mcp-tool-catalog.ts';
import { callTool, rootOf } from '../../src/mcp/mcp-server.ts';
import { isReadTool, sampleArgs, toolAnnotations } from '../../src/mcp/tool-annotations.ts';
import { DiagnosticsMemory } from '../../src/tools/diagnostics-memory.ts';
import { bindHostCallRoot } from '../../src/tools/host-call-roots.ts';
import { buildLspTools } from '../../src/tools/register-lsp-tools.ts';
import { sessionRoot } from '../../src/tools/run-tool-action.ts';

/** The plugin's real tool definitions, with the escalation pair advertised (a confining fs). */
function realTools(): ReturnType<typeof buildLspTools> {
  const deps = { runner: { run: async () => ({}) as never }, authorizer: { canEscalate: true }, config: resolveConfig({}) };
  return buildLspTools(deps as never, new DiagnosticsMemory(4));
}

/** An fs.watch that fails as at the inotify watch limit. */
const enospc = (): never => {
  throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });
};

describe('the MCP tool list', () => {
  it('is the registry\'s lsp_* tools with their own schema and text, without the escalation pair', () => {
    const defs = realTools();
    const registry = {
      schemas: () => [...defs.map((d) => ({ name: d.name, description: d.description, parameters: d.parameters as Record<string, unknown> })), { name: 'read', description: 'x', parameters: {} }],
      get: (name: string) => defs.find((d) => d.name === name),
    };
    const tools = mcpTools(registry);
    assert.deepEqual(tools.map((t) => t.name), defs.map((d) => d.name), 'every plugin tool, in order; no harness tool');
    const rename = tools.find((t) => t.name === 'lsp_rename');
    const renameDef = defs.find((d) => d.name === 'lsp_rename');
    assert.equal(rename?.description, renameDef?.description);
    const advertised = (renameDef?.parameters as { properties?: object } | undefined)?.properties ?? {};
    assert.ok('sandbox_permissions' in advertised, 'the registry advertises escalation here');
    assert.deepEqual(Object.keys(rename?.inputSchema.properties ?? {}), ['file_path', 'line', 'character', 'new_name']);
  });

  it('withoutEscalation drops the pair from properties and required, and leaves the rest', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, sandbox_permissions: {}, justification: {} }, required: ['a', 'justification'], additionalProperties: false };
    assert.deepEqual(withoutEscalation(schema), { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false });
    assert.equal(escalationArgOf({ a: 1, justification: 'x' }), 'justification');
    assert.equal(escalationArgOf({ a: 1 }), undefined);
  });

  it('annotations: the tools that declare concurrency safety are reads, every other tool a destructive write', () => {
    const byName = new Map(realTools().map((d) => [d.name, toolAnnotations(d)]));
    for (const read of ['lsp_diagnostics', 'lsp_completion', 'lsp_symbols', 'lsp_signature', 'lsp_inlay_hints']) {
      assert.deepEqual(byName.get(read), { readOnlyHint: true, openWorldHint: false }, read);
    }
    for (const write of ['lsp_format', 'lsp_code_action', 'lsp_organize_imports', 'lsp_rename']) {
      assert.equal(byName.get(write)?.readOnlyHint, false, write);
      assert.equal(byName.get(write)?.destructiveHint, true, write);
    }
    assert.equal(byName.get('lsp_format')?.idempotentHint, true);
    assert.equal(byName.get('lsp_organize_imports')?.idempotentHint, true);
    assert.equal(byName.get('lsp_rename')?.idempotentHint, false);
    assert.equal(isReadTool({ parameters: {}, isConcurrencySafe: () => { throw new Error('x'); } }), false, 'a throwing classifier is no promise');
    assert.equal(isReadTool({ parameters: {} }), false, 'no classifier: a write');
  });

  it('sampleArgs gives each required property a value of its type', () => {
    const schema = { properties: { p: { type: 'string' }, n: { type: 'integer' }, k: { type: 'string', enum: ['x', 'y'] }, o: { type: 'boolean' } }, required: ['p', 'n', 'k'] };
    assert.deepEqual(sampleArgs(schema), { p: 'a', n: 1, k: 'x' });
  });
});

describe('the root of a call', () => {
  it('is the innermost served folder holding an absolute path, else the first folder', () => {
    const folders = ['/w/a', '/w/b', '/w/b/inner'];
    assert.equal(rootOf({ file_path: 'src/x.ts' }, folders), '/w/a');
    assert.equal(rootOf({ file_path: '/w/b/x.ts' }, folders), '/w/b');
    assert.equal(rootOf({ file_path: '/w/b/inner/x.ts' }, folders), '/w/b/inner');
    assert.equal(rootOf({ file_paths: ['/w/b/y.ts', '/w/a/z.ts'] }, folders), '/w/b');
    assert.equal(rootOf({ file_path: '/w/bb/x.ts' }, folders), '/w/a', 'a sibling with a common prefix is not inside');
    assert.equal(rootOf({}, folders), '/w/a');
  });

  it('sessionRoot: an agentless call reads the root bound to its id, and only while bound', () => {
    const exec = { name: 'lsp_x', callId: 'call-1', agent: undefined };
    assert.throws(() => sessionRoot(exec), /LSP_ACTION_WORKSPACE_REQUIRED|has none/);
    const release = bindHostCallRoot('call-1', '/w/a');
    assert.equal(sessionRoot(exec), '/w/a');
    assert.throws(() => bindHostCallRoot('call-1', '/w/b'), /already bound/);
    const withAgent = { ...exec, agent: { session: { header: { cwd: '/agent/cwd' } } } as never };
    assert.equal(sessionRoot(withAgent), '/agent/cwd', 'a call with an agent uses its session');
    release();
    assert.throws(() => sessionRoot(exec), /has none/);
  });
});

describe('changed files', () => {
  it('merges per path: created then changed is new, created then deleted never happened', () => {
    assert.equal(merge(undefined, 'changed'), 'changed');
    assert.equal(merge('created', 'changed'), 'created');
    assert.equal(merge('created', 'deleted'), undefined);
    assert.equal(merge('deleted', 'created'), 'changed');
    assert.equal(merge('changed', 'deleted'), 'deleted');
  });

  it('takes the changes under one folder, once', async () => {
    let report: ((changes: Array<{ path: string; kind: 'created' | 'changed' | 'deleted' }>) => void) | undefined;
    const stopped: string[] = [];
    const changes = new ChangedFiles(['/w/a', '/w/b'], (root, onChange) => {
      if (root === '/w/a') report = onChange;
      return () => stopped.push(root);
    });
    report?.([{ path: '/w/a/x.ts', kind: 'changed' }, { path: '/w/a/n.ts', kind: 'created' }, { path: '/w/a/n.ts', kind: 'deleted' }]);
    changes.add([{ path: '/w/b/y.ts', kind: 'changed' }, { path: '/w/ab/z.ts', kind: 'changed' }]);
    assert.deepEqual([...(await changes.take('/w/a'))], [['/w/a/x.ts', 'changed']]);
    assert.deepEqual([...(await changes.take('/w/a'))], []);
    assert.deepEqual([...(await changes.take('/w/b'))], [['/w/b/y.ts', 'changed']]);
    changes.dispose();
    assert.deepEqual(stopped, ['/w/a', '/w/b']);
  });

  it('restore puts taken changes back as older than what came since', async () => {
    const changes = new ChangedFiles([], () => () => undefined);
    changes.add([{ path: '/w/a/x.ts', kind: 'created' }, { path: '/w/a/y.ts', kind: 'changed' }]);
    const taken = await changes.take('/w/a');
    changes.add([{ path: '/w/a/x.ts', kind: 'changed' }, { path: '/w/a/y.ts', kind: 'deleted' }]);
    changes.restore(taken);
    assert.deepEqual([...(await changes.take('/w/a'))].sort(), [['/w/a/x.ts', 'created'], ['/w/a/y.ts', 'deleted']]);
  });

  it('a watcher that hits the inotify limit hands over its sweep: an edit is still taken (real node:fs tree)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'dsh-lsp-mcp-degraded-'));
    try {
      mkdirSync(join(root, 'src'));
      writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
      const changes = new ChangedFiles([root], nodeWorkspaceWatch({ watch: enospc }));
      try {
        assert.equal(changes.blindSpot(root), undefined, 'a sweep replaces the watcher');
        writeFileSync(join(root, 'src', 'a.ts'), 'export const a: string = 1;\n');
        writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 2;\n');
        const taken = [...(await changes.take(root))].sort();
        assert.deepEqual(taken, [[join(root, 'src', 'a.ts'), 'changed'], [join(root, 'src', 'b.ts'), 'created']]);
        assert.deepEqual([...(await changes.take(root))], [], 'taken once');
      } finally {
        changes.dispose();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a folder with no watcher and no sweep is a blind spot, and lsp_edit_feedback says so instead of "no change"', async () => {
    const changes = new ChangedFiles(['/w/a'], () => {
      throw new Error('EMFILE: too many open files');
    });
    assert.match(changes.blindSpot('/w/a') ?? '', /could not be set up: EMFILE/);
    assert.equal(changes.blindSpot('/w/other'), undefined);
    const tool = lspEditFeedbackTool({
      verdictFor: async () => assert.fail('nothing to judge'),
      engine: { serversFor: () => ['ts'] },
      config: resolveConfig({}),
      changes,
      folders: ['/w/a'],
    });
    const value = (await tool.execute({}, { signal: new AbortController().signal } as never)) as { text: string };
    assert.match(value.text, /^LSP: changes under \/w\/a cannot be seen \(watching failed: .*EMFILE.*\); call lsp_diagnostics on the files you edited there$/);
    assert.doesNotMatch(value.text, /saw no file change/);
  });

  it('a sweep that fails leaves the folder blind', async () => {
    const changes = new ChangedFiles(['/w/a'], (_root, _onChange, hooks) => {
      hooks?.onDegraded('cannot watch /w/a: ENOSPC', async () => {
        throw new Error('EACCES');
      });
      return () => undefined;
    });
    assert.equal(changes.blindSpot('/w/a'), undefined);
    await changes.take('/w/a');
    assert.match(changes.blindSpot('/w/a') ?? '', /ENOSPC; its sweep failed too: EACCES/);
  });
});

describe('lsp_edit_feedback', () => {
  it('a cancelled call gives its changes back: the next call judges them, with the plugin\'s own verdict', async () => {
    const changes = new ChangedFiles([], () => () => undefined);
    const config = resolveConfig({});
    const asked: string[][] = [];
    const tool = lspEditFeedbackTool({
      verdictFor: async (root, paths, signal) => {
        if (signal.aborted) throw new Error('aborted');
        asked.push([...paths]);
        return { root, waitMs: 3000, files: [], pending: 1, pendingOf: [...paths], unknownDependents: [], dependentsChecked: 0 };
      },
      engine: { serversFor: (path: string) => (path.endsWith('.ts') ? ['ts'] : []) },
      config,
      changes,
      folders: ['/w/a'],
    });
    changes.add([{ path: '/w/a/x.ts', kind: 'changed' }, { path: '/w/a/notes.txt', kind: 'changed' }, { path: '/w/a/gone.ts', kind: 'deleted' }]);
    const cancelled = new AbortController();
    cancelled.abort();
    await assert.rejects(tool.execute({}, { signal: cancelled.signal } as never));
    const value = (await tool.execute({}, { signal: new AbortController().signal } as never)) as { text: string };
    // only the changed file a server checks is judged; the deletion is named, never judged as clean
    assert.deepEqual(asked, [['/w/a/x.ts']]);
    assert.match(value.text, /^LSP: .*pending/);
    assert.doesNotMatch(value.text, /no new problems/);
    assert.match(value.text, /Deleted: gone\.ts/);
  });
});

/** A failed registry result. */
const failure = (code: string, text: string): ToolExecutionResult =>
  ({ isError: true, error: { info: { code } }, content: [{ type: 'text', text }] }) as unknown as ToolExecutionResult;
/** A booted composition whose registry answers `result` and records what it ran. */
const backend = (result: ToolExecutionResult, seen: unknown[] = []) => ({
  folders: ['/w/a'],
  sandbox: 'read-only',
  tools: {
    schemas: () => [],
    get: (name: string) => (name === 'lsp_format' ? ({ name } as never) : undefined),
    execute: async (input: { callId: string; name: string; arguments: unknown }) => {
      seen.push({ ...input, root: sessionRoot({ name: input.name, callId: input.callId, agent: undefined }) });
      return result;
    },
  },
  onResult: (name: string, root: string) => seen.push(`result ${name} ${root}`),
});

describe('tools/call failures are tool results', () => {
  const signal = new AbortController().signal;

  it('an unknown tool, a non-object argument list and an escalation argument never reach the registry', async () => {
    const seen: unknown[] = [];
    const b = backend(failure('X', 'x'), seen) as never;
    const unknown = await callTool(b, 'lsp_nope', {}, 'c1', signal);
    assert.equal(unknown.isError, true);
    assert.match((unknown.content[0] as { text: string }).text, /^LSP_ACTION_INVALID_ARGS: unknown tool 'lsp_nope'/);
    assert.equal((await callTool(b, 'lsp_format', [1], 'c2', signal)).isError, true);
    const escalation = await callTool(b, 'lsp_format', { file_path: 'a', sandbox_permissions: 'workspace-write' }, 'c3', signal);
    assert.match((escalation.content[0] as { text: string }).text, /sandbox_permissions is not accepted here.*--sandbox read-only/s);
    assert.deepEqual(seen, []);
  });

  it('a read-only refusal says how the user allows writes; the call ran under its bound root', async () => {
    const seen: unknown[] = [];
    const refused = await callTool(backend(failure('LSP_ACTION_READ_ONLY', 'Error: [sandbox: denied] nothing was written.'), seen) as never, 'lsp_format', { file_path: 'a.ts' }, 'c4', signal);
    assert.equal(refused.isError, true);
    assert.match((refused.content[0] as { text: string }).text, /^LSP_ACTION_READ_ONLY: Error: \[sandbox: denied\] nothing was written\.\nThis MCP server runs with --sandbox read-only\. .*--sandbox workspace-write/);
    assert.deepEqual(seen, [{ callId: 'c4', name: 'lsp_format', arguments: { file_path: 'a.ts' }, signal, root: '/w/a' }]);
  });

  it('a success is its text, and the face is told the value', async () => {
    const seen: unknown[] = [];
    const ok = { isError: false, value: { v: 1 }, content: [{ type: 'text', text: 'done' }] } as unknown as ToolExecutionResult;
    const result = await callTool(backend(ok, seen) as never, 'lsp_format', {}, 'c5', signal);
    assert.deepEqual(result, { content: [{ type: 'text', text: 'done' }] });
    assert.equal(seen.at(-1), 'result lsp_format /w/a');
  });
});
