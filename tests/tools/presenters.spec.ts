import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Context } from '@deepseek-ai/cordis';
import { CallId } from '@deepseek-ai/dsh-llm';
import { SystemPrompt } from '@deepseek-ai/dsh-system-prompt';
import { ToolRuntime, type ToolExecutionResult } from '@deepseek-ai/dsh-tools';
import type { ActionRunner, RunRequest } from '../../src/actions/action-runner.ts';
import type { WriteAuthorizer } from '../../src/permission/write-authorizer-types.ts';
import { diffsFromMeta, searchFromMeta } from '../../src/tools/cards.ts';
import { registerLspTools } from '../../src/tools/register-lsp-tools.ts';
import { diag, diagnosticsResult, fakeAgent, stubRunner, toolDeps, WS } from './tool-fixtures.ts';

const pos = (line: number, character: number) => ({ line, character });
const range = (l1: number, c1: number, l2: number, c2: number) => ({ start: pos(l1, c1), end: pos(l2, c2) });
const A = `${WS}/src/a.ts`;

/** One wire result per action, shaped as `src/actions/action-results.ts` declares. */
const RESULTS: Record<string, unknown> = {
  'diagnostics.get': diagnosticsResult(A, [diag(2, 'bad'), diag(7, 'worse', { severity: 2 })]),
  format: { kind: 'formatted', filePath: A, appliedEdits: 2, linesChanged: 1, before: 'let  a=1\nlet b = 2\n', after: 'let a = 1\nlet b = 2\n' },
  'completion.get': { kind: 'completion', filePath: A, position: pos(1, 3), prefix: 'ma', isIncomplete: false, truncated: false, total: 1, items: [{ label: 'map', kind: 2, serverId: 'ts' }] },
  'codeActions.list': { kind: 'codeActions', filePath: A, range: range(2, 0, 3, 0), truncated: false, total: 1, actions: [{ index: 0, title: 'Fix', isPreferred: true, serverId: 'ts', diagnostics: [] }] },
  'codeAction.apply': {
    kind: 'codeActionApplied', filePath: A, title: 'Add import', serverId: 'ts', applied: true, commandExecuted: false, files: [{ filePath: 'src/a.ts', editCount: 1 }],
    filesChanged: 1, appliedEdits: 1, diffs: [{ filePath: 'src/a.ts', before: 'b();\n', after: 'import { b } from "./b";\nb();\n' }],
  },
  organizeImports: { kind: 'importsOrganized', filePath: A, title: 'Organize Imports', serverId: 'ts', linesChanged: 2, filesChanged: 1, appliedEdits: 1, diffs: [{ filePath: 'src/a.ts', before: 'import b;\nimport a;\n', after: 'import a;\nimport b;\n' }] },
  rename: {
    kind: 'renamed', filePath: A, position: pos(0, 4), oldName: 'a', newName: 'z', serverId: 'ts', filesChanged: 2, appliedEdits: 2,
    files: [{ filePath: 'src/a.ts', editCount: 1 }, { filePath: 'src/b.ts', editCount: 1 }],
    diffs: [{ filePath: 'src/a.ts', before: 'let a;\n', after: 'let z;\n' }, { filePath: 'src/b.ts', before: 'a();\n', after: 'z();\n' }],
  },
  'symbols.get': { kind: 'symbols', scope: 'document', filePath: A, truncated: false, total: 1, symbols: [{ name: 'f', kind: 12, filePath: 'src/a.ts', range: range(4, 0, 6, 1), selectionRange: range(4, 9, 4, 10) }] },
  'signature.get': { kind: 'signature', filePath: A, position: pos(3, 2), signatures: [{ label: 'f(a: number): void', parameters: [{ label: 'a: number' }] }], activeSignature: 0, activeParameter: 0 },
  'inlayHints.get': { kind: 'inlayHints', filePath: A, serverId: 'ts', truncated: false, total: 1, hints: [{ position: pos(0, 5), label: ': number', kind: 1 }] },
};

const CALLS: Array<[string, Record<string, unknown>]> = [
  ['lsp_diagnostics', { file_path: 'src/a.ts' }],
  ['lsp_format', { file_path: 'src/a.ts', start_line: 1, end_line: 2 }],
  ['lsp_completion', { file_path: 'src/a.ts', line: 2, character: 4 }],
  ['lsp_code_action', { file_path: 'src/a.ts', start_line: 3 }],
  ['lsp_code_action', { file_path: 'src/a.ts', index: 1 }],
  ['lsp_organize_imports', { file_path: 'src/a.ts' }],
  ['lsp_rename', { file_path: 'src/a.ts', line: 1, character: 5, new_name: 'z' }],
  ['lsp_symbols', { file_path: 'src/a.ts' }],
  ['lsp_signature', { file_path: 'src/a.ts', line: 4, character: 3 }],
  ['lsp_inlay_hints', { file_path: 'src/a.ts' }],
];

let ctx: Context;
const results = new Map<string, ToolExecutionResult>();
before(async () => {
  const runner = stubRunner((r: RunRequest) => RESULTS[r.action]);
  const deps = toolDeps(runner, { canEscalate: true });
  ctx = new Context();
  await ctx.plugin(SystemPrompt);
  await ctx.plugin(ToolRuntime);
  await ctx.plugin({ name: 't', inject: ['tools'], apply: (c: Context) => registerLspTools(c, { runner: deps.runner as ActionRunner, authorizer: deps.authorizer as WriteAuthorizer, config: deps.config }) });
  for (const [i, [name, args]] of CALLS.entries()) {
    const result = await ctx.tools.execute({ callId: CallId(`p${i}`), name, arguments: args, agent: fakeAgent(), signal: new AbortController().signal });
    results.set(`${name}#${i}`, result);
  }
});
after(async () => {
  await ctx.root.fiber.dispose();
});

const get = (i: number): ToolExecutionResult => {
  const [name] = CALLS[i] ?? [''];
  const result = results.get(`${name}#${i}`);
  assert.ok(result);
  return result;
};
const present = (i: number, meta?: unknown) => {
  const [name, args] = CALLS[i] ?? ['', {}];
  const result = get(i);
  return ctx.tools.get(name)?.presentResult?.(args, { content: result.content, isError: result.isError, ...(meta === undefined ? (result.meta === undefined ? {} : { meta: result.meta }) : { meta: meta as never }) });
};

const card = (name: string, args: unknown) => ctx.tools.get(name)?.presentCall?.(args);

describe('structured results and cards', () => {
  it('every tool returns a value its output schema accepts (zero-based, as the actions return it)', () => {
    for (const [i, [name]] of CALLS.entries()) {
      const result = get(i);
      assert.equal(result.isError, false, `${name}: ${JSON.stringify(result.content)}`);
      if (!result.isError) assert.equal((result.value as { workspaceRoot?: string }).workspaceRoot, WS, name);
    }
    const rename = get(6);
    if (!rename.isError) assert.deepEqual((rename.value as { position: unknown }).position, pos(0, 4));
  });

  it('write tools rebuild a diff card from the persisted meta, with workspace-relative paths', () => {
    assert.deepEqual(present(1), {
      card: 'diff', title: 'Format src/a.ts:1-2',
      diffs: [{ path: 'src/a.ts', oldText: 'let  a=1\nlet b = 2', newText: 'let a = 1\nlet b = 2' }],
    });
    const rename = present(6);
    assert.equal(rename?.card, 'diff');
    assert.deepEqual(rename?.card === 'diff' ? rename.diffs.map((d) => d.path) : [], ['src/a.ts', 'src/b.ts']);
    const applied = present(4);
    assert.deepEqual(applied?.card === 'diff' ? applied.diffs : [], [{ path: 'src/a.ts', oldText: 'b();', newText: 'import { b } from "./b";\nb();' }]);
    assert.equal(present(5)?.card, 'diff');
  });

  it('read tools present search cards with one-based lines', () => {
    assert.deepEqual(present(0), {
      card: 'search', shape: 'matches', title: 'Diagnostics src/a.ts', truncated: false, total: 2,
      files: [{ path: 'src/a.ts', matches: [{ lineNumber: 3, line: 'error typescript(2322): bad' }, { lineNumber: 8, line: 'warning typescript(2322): worse' }] }],
    });
    assert.deepEqual(present(7), {
      card: 'search', shape: 'matches', title: 'Outline src/a.ts', truncated: false, total: 1,
      files: [{ path: 'src/a.ts', matches: [{ lineNumber: 5, line: 'function f' }] }],
    });
  });

  it('presenters are pure: replaying the persisted JSON gives the same card; no meta or an error gives the generic card', () => {
    for (const i of [0, 1, 4, 6, 7]) {
      const replayed = present(i, JSON.parse(JSON.stringify(get(i).meta)));
      assert.deepEqual(replayed, present(i), `call ${i}`);
    }
    assert.equal(present(1, { diffs: [{ path: 1 }] }), undefined, 'malformed meta');
    assert.equal(present(0, { files: 'nope' }), undefined, 'malformed meta');
    assert.equal(present(3), undefined, 'a listing has no diff');
    const [name, args] = CALLS[1] ?? ['', {}];
    assert.equal(ctx.tools.get(name)?.presentResult?.(args, { content: [], isError: true }), undefined);
    assert.equal(diffsFromMeta(null), undefined);
    assert.equal(searchFromMeta([]), undefined);
  });

  it('call cards: titles with one-based cursors and follow-along locations; malformed args fall back', () => {
    assert.deepEqual(card('lsp_rename', { file_path: 'src/a.ts', line: 3, character: 9, new_name: 'z' }), {
      card: 'generic', title: 'Rename src/a.ts:3:9 → z', kind: 'edit', locations: [{ path: 'src/a.ts', line: 3 }],
    });
    assert.deepEqual(card('lsp_diagnostics', { file_paths: ['a.ts', 'b.ts'], changes_only: true }), {
      card: 'generic', title: 'Diagnostics 2 files (changes)', kind: 'read', locations: [{ path: 'a.ts' }, { path: 'b.ts' }],
    });
    assert.deepEqual(card('lsp_diagnostics', {}), { card: 'generic', title: 'Diagnostics workspace', kind: 'read' });
    assert.deepEqual(card('lsp_code_action', { file_path: 'a.ts', start_line: 4, title: 'Fix it' }), {
      card: 'generic', title: 'Apply code action "Fix it" in a.ts:4', kind: 'edit', locations: [{ path: 'a.ts', line: 4 }],
    });
    assert.deepEqual(card('lsp_symbols', { query: 'Foo' }), { card: 'generic', title: 'Symbols matching "Foo"', kind: 'search' });
    assert.equal(card('lsp_rename', { file_path: 3 }), undefined);
    for (const [name, args] of CALLS) assert.deepEqual(card(name, args), card(name, args), name);
  });
});
