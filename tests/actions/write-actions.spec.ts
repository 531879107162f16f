/**
 * `format`, `rename`, `organizeImports` and `codeAction.apply` on the stub engine and the
 * memory writer: results, `unchanged`, NO_SYMBOL / UNSUPPORTED, and commands whose
 * `workspace/applyEdit` goes through the same writer.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codeActionApplyAction } from '../../src/actions/code-action-apply.ts';
import { formatDocumentAction } from '../../src/actions/format-document.ts';
import { organizeImportsAction } from '../../src/actions/organize-imports.ts';
import { renameSymbolAction } from '../../src/actions/rename-symbol.ts';
import type { NormalizedWorkspaceEdit } from '../../src/lsp/engine-types.ts';
import { ROOT, actionError, codeAction, edit, invocation, makeServices, range } from './support/action-fixtures.ts';

const A = '/ws/a.ts';
const B = '/ws/b.ts';

function setup(files: Record<string, string>) {
  const services = makeServices();
  for (const [path, text] of Object.entries(files)) {
    services.writer.disk.set(path, text);
    services.engine.docs.set(path, text);
  }
  return services;
}

describe('format', () => {
  it('applies the edits; linesChanged counts differing lines', async () => {
    const services = setup({ [A]: 'let a=1\nlet b = 2\nlet c=3\n' });
    services.engine.formatEdits = [edit(range(0, 5, 0, 6), ' = '), edit(range(2, 5, 2, 6), ' = ')];
    const result = await formatDocumentAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true));
    assert.deepEqual(result, {
      kind: 'formatted',
      filePath: 'a.ts',
      appliedEdits: 2,
      linesChanged: 2,
      before: 'let a=1\nlet b = 2\nlet c=3\n',
      after: 'let a = 1\nlet b = 2\nlet c = 3\n',
    });
    assert.equal(services.writer.requests[0]?.basis?.get(A), 'let a=1\nlet b = 2\nlet c=3\n');
  });

  it('passes the range; no edits or identical text is exactly { kind: unchanged, filePath }', async () => {
    const services = setup({ [A]: 'x\n' });
    const none = await formatDocumentAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', range: range(0, 0, 0, 1) }, services, invocation(true));
    assert.deepEqual(none, { kind: 'unchanged', filePath: 'a.ts' });
    assert.deepEqual(services.engine.callsOf('format')[0]?.args[1], range(0, 0, 0, 1));
    services.engine.formatEdits = [edit(range(0, 0, 0, 1), 'x')];
    assert.deepEqual(await formatDocumentAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true)), { kind: 'unchanged', filePath: 'a.ts' });
    assert.equal(services.writer.requests.length, 0, 'nothing written for a no-op');
  });
});

describe('rename', () => {
  it('prepareRename null is NO_SYMBOL, before any rename', async () => {
    const services = setup({ [A]: 'x' });
    services.engine.prepareRenameResult = null;
    await assert.rejects(
      renameSymbolAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', position: { line: 0, character: 0 }, newName: 'y' }, services, invocation(true)),
      actionError('LSP_ACTION_NO_SYMBOL', /nothing to rename at a\.ts line 0, character 0/),
    );
    assert.equal(services.engine.callsOf('rename').length, 0);
  });

  it('applies a multi-file rename and lists files and edit counts', async () => {
    const services = setup({ [A]: 'export const foo = 1;\n', [B]: 'import { foo } from "./a";\nfoo + foo;\n' });
    services.engine.prepareRenameResult = { serverId: 'ts', range: range(0, 13, 0, 16) };
    services.engine.renameEdit = {
      steps: [
        { kind: 'edit', path: A, edits: [edit(range(0, 13, 0, 16), 'bar')] },
        { kind: 'edit', path: B, edits: [edit(range(0, 9, 0, 12), 'bar'), edit(range(1, 0, 1, 3), 'bar'), edit(range(1, 6, 1, 9), 'bar')] },
      ],
    };
    const result = await renameSymbolAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', position: { line: 0, character: 14 }, newName: 'bar' }, services, invocation(true));
    assert.equal(result.kind, 'renamed');
    if (result.kind !== 'renamed') return;
    assert.equal(result.oldName, 'foo');
    assert.equal(result.filesChanged, 2);
    assert.equal(result.appliedEdits, 4);
    assert.deepEqual(result.files, [{ filePath: 'a.ts', editCount: 1 }, { filePath: 'b.ts', editCount: 3 }]);
    assert.equal(services.writer.disk.get(B), 'import { bar } from "./a";\nbar + bar;\n');
    assert.deepEqual(services.engine.callsOf('filesChanged')[0]?.args[0], [{ path: A, kind: 'changed' }, { path: B, kind: 'changed' }]);
  });
});

/** Makes the stub engine expose the servers' advertised code action kinds. */
function advertise(services: ReturnType<typeof setup>, kinds: string[] | undefined): void {
  Object.assign(services.engine, { codeActionKinds: async () => [{ serverId: 'ts', ...(kinds ? { kinds } : {}) }] });
}

/** After a write, the stub engine holds the new text (as the real engine does after filesChanged). */
function syncDocsAfterWrites(services: ReturnType<typeof setup>): void {
  services.engine.filesChanged = async (changes) => {
    for (const change of changes) services.engine.docs.set(change.path, services.writer.disk.get(change.path) ?? '');
  };
}

describe('organizeImports', () => {
  it('servers that list their code action kinds without organize imports: UNSUPPORTED before any code action request', async () => {
    const services = setup({ [A]: 'x' });
    advertise(services, ['quickfix', 'source.fixAll', 'source.organizeImportsLater']);
    await assert.rejects(
      organizeImportsAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true)),
      actionError('LSP_ACTION_UNSUPPORTED', /can organize imports.*source\.organizeImports or source\.removeUnusedImports/),
    );
    assert.equal(services.engine.callsOf('codeActions').length, 0);
  });

  it('a server listing an organize-imports kind that offers nothing: unchanged, "already organized", nothing written', async () => {
    for (const kinds of [['source.organizeImports.ts'], ['source'], ['source.removeUnusedImports.ts']]) {
      const services = setup({ [A]: 'x' });
      advertise(services, kinds);
      services.engine.codeActionItems = [codeAction('Fix', { kind: 'quickfix' })];
      const result = await organizeImportsAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true));
      assert.deepEqual(result, { kind: 'unchanged', filePath: 'a.ts', reason: 'the imports are already organized' }, kinds.join());
      assert.equal(services.writer.requests.length, 0);
    }
  });

  it('a server that lists no kinds and offers nothing: unchanged (not UNSUPPORTED); both kinds were asked for', async () => {
    for (const withQuery of [false, true]) {
      const services = setup({ [A]: 'x' });
      if (withQuery) advertise(services, undefined);
      services.engine.codeActionItems = [codeAction('Fix', { kind: 'quickfix' }), codeAction('Organize', { kind: 'source.organizeImports', disabled: 'not now' })];
      const result = await organizeImportsAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true));
      assert.deepEqual(result, { kind: 'unchanged', filePath: 'a.ts', reason: 'the language server offered no change to the imports' });
      assert.deepEqual(
        services.engine.callsOf('codeActions').map((call) => call.args.slice(1)),
        [
          [range(0, 0, 0, 1), ['source.organizeImports']],
          [range(0, 0, 0, 1), ['source.removeUnusedImports']],
        ],
      );
    }
  });

  it('applies the organize edit', async () => {
    const text = 'import { b } from "b";\nimport { a } from "a";\n';
    const services = setup({ [A]: text });
    services.engine.codeActionItems = [
      codeAction('Organize Imports', { kind: 'source.organizeImports.ts', edit: { steps: [{ kind: 'edit', path: A, edits: [edit(range(0, 0, 2, 0), 'import { a } from "a";\nimport { b } from "b";\n')] }] } }),
    ];
    const result = await organizeImportsAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true));
    assert.equal(result.kind, 'importsOrganized');
    if (result.kind !== 'importsOrganized') return;
    assert.equal(result.linesChanged, 2);
    assert.equal(result.title, 'Organize Imports');
  });

  it('then removes unused imports on the organized text, reporting both as one change', async () => {
    const text = 'import { c } from "c";\nimport { b } from "b";\nimport { a } from "a";\nb;\n';
    const services = setup({ [A]: text });
    syncDocsAfterWrites(services);
    advertise(services, ['source.organizeImports.ts', 'source.removeUnusedImports.ts']);
    services.engine.codeActionItems = [
      codeAction('Organize Imports', { kind: 'source.organizeImports.ts', edit: { steps: [{ kind: 'edit', path: A, edits: [edit(range(0, 0, 3, 0), 'import { a } from "a";\nimport { b } from "b";\nimport { c } from "c";\n')] }] } }),
      // Computed against the organized text: drops lines 1 and 3 (a and c).
      codeAction('Remove Unused Imports', { kind: 'source.removeUnusedImports.ts', edit: { steps: [{ kind: 'edit', path: A, edits: [edit(range(0, 0, 1, 0), ''), edit(range(2, 0, 3, 0), '')] }] } }),
    ];
    const result = await organizeImportsAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true));
    assert.equal(services.writer.disk.get(A), 'import { b } from "b";\nb;\n');
    assert.equal(result.kind, 'importsOrganized');
    if (result.kind !== 'importsOrganized') return;
    assert.equal(result.title, 'Organize Imports, Remove Unused Imports');
    assert.equal(result.appliedEdits, 3);
    assert.equal(result.filesChanged, 1);
    assert.deepEqual(result.diffs, [{ filePath: 'a.ts', before: text, after: 'import { b } from "b";\nb;\n' }]);
    assert.equal(result.failureReason, undefined);
  });

  it('a failure after the organize edit was written is reported next to it', async () => {
    const text = 'import { b } from "b";\nimport { a } from "a";\n';
    const services = setup({ [A]: text });
    // The engine keeps the old text: the second edit's basis no longer matches the disk.
    services.engine.codeActionItems = [
      codeAction('Organize Imports', { kind: 'source.organizeImports', edit: { steps: [{ kind: 'edit', path: A, edits: [edit(range(0, 0, 2, 0), 'import { a } from "a";\nimport { b } from "b";\n')] }] } }),
      codeAction('Remove Unused Imports', { kind: 'source.removeUnusedImports', edit: { steps: [{ kind: 'edit', path: A, edits: [edit(range(0, 0, 1, 0), '')] }] } }),
    ];
    const result = await organizeImportsAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true));
    assert.equal(result.kind, 'importsOrganized');
    if (result.kind !== 'importsOrganized') return;
    assert.equal(result.title, 'Organize Imports');
    assert.match(result.failureReason ?? '', /changed since the server read it/);
    assert.equal(services.writer.disk.get(A), 'import { a } from "a";\nimport { b } from "b";\n');
  });
});

describe('codeAction.apply', () => {
  const serverEdit: NormalizedWorkspaceEdit = { steps: [{ kind: 'edit', path: A, edits: [edit(range(0, 0, 0, 3), 'let')] }] };

  it('runs a command; the edit the server sends back goes through the writer', async () => {
    const services = setup({ [A]: 'var x = 1;\n' });
    services.engine.codeActionItems = [codeAction('Fix all', { kind: 'source.fixAll', command: { title: 'Fix all', command: 'eslint.applyAll', arguments: [1] } })];
    const answers: unknown[] = [];
    services.engine.executeCommandImpl = async (_command, applyEdit) => {
      answers.push(await applyEdit(serverEdit, { serverId: 'ts' }));
      return null;
    };
    const result = await codeActionApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', range: range(0, 0) }, services, invocation(true));
    assert.deepEqual(answers, [{ applied: true }]);
    assert.equal(services.writer.requests.length, 1);
    assert.deepEqual(services.writer.requests[0]?.actor, { name: 'test' });
    assert.equal(services.writer.disk.get(A), 'let x = 1;\n');
    assert.equal(result.kind, 'codeActionApplied');
    if (result.kind !== 'codeActionApplied') return;
    assert.equal(result.applied, true);
    assert.equal(result.commandExecuted, true);
    assert.equal(result.actionKind, 'source.fixAll');
    assert.equal(result.filesChanged, 1);
    assert.deepEqual(services.engine.callsOf('executeCommand')[0]?.args.slice(1), ['ts', { title: 'Fix all', command: 'eslint.applyAll', arguments: [1] }]);
  });

  it('a refused server edit is answered applied:false with the reason; nothing written → the coded error', async () => {
    const services = setup({ [A]: 'var x = 1;\n' });
    services.writer.disk.set(A, 'var x = 2;\n');
    services.engine.codeActionItems = [codeAction('Cmd', { command: { title: 'Cmd', command: 'c' } })];
    const answers: unknown[] = [];
    services.engine.executeCommandImpl = async (_command, applyEdit) => {
      answers.push(await applyEdit(serverEdit, { serverId: 'ts' }));
      return null;
    };
    await assert.rejects(codeActionApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', range: range(0, 0) }, services, invocation(true)), actionError('LSP_ACTION_CONFLICT'));
    assert.deepEqual(answers, [{ applied: false, failureReason: '/ws/a.ts changed since the server read it' }]);
    assert.equal(services.writer.disk.get(A), 'var x = 2;\n');
  });

  it('edit + command: the edit first, then the command; a later refusal undoes the edit (all or nothing)', async () => {
    const services = setup({ [A]: 'var x = 1;\n', [B]: 'b\n' });
    services.engine.codeActionItems = [codeAction('Both', { kind: 'refactor', edit: serverEdit, command: { title: 'then', command: 'then' } })];
    services.engine.executeCommandImpl = async (_command, applyEdit) => applyEdit({ steps: [{ kind: 'edit', path: '/ws/missing.ts', edits: [edit(range(0, 0), 'x')] }] }, { serverId: 'ts' });
    await assert.rejects(
      codeActionApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', title: 'Both', range: range(0, 0) }, services, invocation(true)),
      actionError('LSP_ACTION_FILE_NOT_FOUND', /missing\.ts does not exist.*all-or-nothing: undone in \/ws\/a\.ts/),
    );
    assert.equal(services.writer.disk.get(A), 'var x = 1;\n', 'the action\'s own edit was undone');
    const order = services.engine.calls.map((c) => c.method).filter((m) => m === 'filesChanged' || m === 'executeCommand');
    assert.deepEqual(order.slice(0, 2), ['filesChanged', 'executeCommand'], 'the server hears of the edit before its command runs');
  });

  it('runCommand:false leaves a command-only action unchanged, with the reason', async () => {
    const services = setup({ [A]: 'x' });
    services.engine.codeActionItems = [codeAction('Cmd', { command: { title: 'Cmd', command: 'c' } })];
    const result = await codeActionApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', range: range(0, 0), runCommand: false }, services, invocation(true));
    assert.deepEqual(result, { kind: 'unchanged', filePath: 'a.ts', reason: '"Cmd" has no edit and its command was not run' });
    assert.equal(services.engine.callsOf('executeCommand').length, 0);
  });
});
