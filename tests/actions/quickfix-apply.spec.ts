/**
 * Code action selection (kind filter, title vs index, first error) and `quickfix.apply`'s
 * write semantics (resolve first, edit only, basis from the engine, engine told afterwards).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filterByKind, kindMatches, selectCodeAction } from '../../src/actions/code-action-select.ts';
import { quickfixApplyAction } from '../../src/actions/quickfix-apply.ts';
import type { NormalizedWorkspaceEdit } from '../../src/lsp/engine-types.ts';
import { ROOT, actionError, codeAction, diag, edit, invocation, makeServices, range } from './support/action-fixtures.ts';

const FILE = '/ws/a.ts';
const TEXT = 'const a = 1;\nconst b = c;\n';
const fixEdit = (newText: string): NormalizedWorkspaceEdit => ({ steps: [{ kind: 'edit', path: FILE, edits: [edit(range(1, 10, 1, 11), newText)] }] });

function setup() {
  const services = makeServices();
  services.writer.disk.set(FILE, TEXT);
  services.engine.docs.set(FILE, TEXT);
  services.engine.diagnosticsFor = (target) => ({
    path: target.path,
    version: 3,
    state: 'fresh',
    diagnostics: [diag('warning', range(0, 6, 0, 7)), diag('error', range(1, 10, 1, 11), "Cannot find name 'c'.")],
    servers: [],
  });
  return services;
}

describe('kind filter', () => {
  it('matches hierarchically and drops kindless actions when filtering', () => {
    assert.equal(kindMatches('quickfix', ['quickfix']), true);
    assert.equal(kindMatches('quickfix.addImport', ['quickfix']), true);
    assert.equal(kindMatches('quickfixes', ['quickfix']), false);
    assert.equal(kindMatches('refactor.extract', ['quickfix', 'refactor']), true);
    assert.equal(kindMatches(undefined, ['quickfix']), false);
    assert.equal(kindMatches(undefined, []), true);
    assert.equal(kindMatches('source', undefined), true);
    const items = [codeAction('a', { kind: 'quickfix' }), codeAction('b'), codeAction('c', { kind: 'refactor' })];
    assert.deepEqual(filterByKind(items, ['quickfix']).map((i) => i.title), ['a']);
    assert.deepEqual(filterByKind(items, []).map((i) => i.title), ['a', 'b', 'c']);
  });
});

describe('selectCodeAction', () => {
  const items = [codeAction('Add import'), codeAction('Change spelling'), codeAction('Ignore')];
  it('exact title wins over index', () => {
    assert.equal(selectCodeAction(items, { title: 'Ignore', index: 0 }, 'fix').index, 2);
  });
  it('index defaults to 0', () => {
    assert.equal(selectCodeAction(items, {}, 'fix').item.title, 'Add import');
    assert.equal(selectCodeAction(items, { index: 1 }, 'fix').item.title, 'Change spelling');
  });
  it('no match is UNKNOWN, listing what was offered', () => {
    assert.throws(() => selectCodeAction(items, { title: 'ignore' }, 'quick fix'), actionError('LSP_ACTION_UNKNOWN', /no quick fix matched title "ignore"; offered: \[0\] "Add import"/));
    assert.throws(() => selectCodeAction(items, { index: 3 }, 'quick fix'), actionError('LSP_ACTION_UNKNOWN', /no quick fix at index 3: 3 offered/));
    assert.throws(() => selectCodeAction([], {}, 'quick fix'), actionError('LSP_ACTION_UNKNOWN', /no quick fix is available here \(index 0 requested, the server offered none\)/));
  });
});

describe('quickfix.apply', () => {
  it('without a range targets the first ERROR diagnostic and applies the fix', async () => {
    const services = setup();
    services.engine.codeActionItems = [codeAction('Declare c', { kind: 'quickfix', edit: fixEdit('a') })];
    const result = await quickfixApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true));
    assert.deepEqual(services.engine.callsOf('codeActions')[0]?.args.slice(1), [range(1, 10, 1, 11), ['quickfix']]);
    assert.deepEqual(result, {
      kind: 'quickfixApplied',
      filePath: 'a.ts',
      title: 'Declare c',
      filesChanged: 1,
      appliedEdits: 1,
      diffs: [{ filePath: 'a.ts', before: TEXT, after: 'const a = 1;\nconst b = a;\n' }],
      serverId: 'ts',
      files: [{ filePath: 'a.ts', editCount: 1 }],
    });
    const request = services.writer.requests[0];
    assert.equal(request?.basis?.get(FILE), TEXT, 'the basis is the text the server saw');
    assert.deepEqual(request?.actor, { name: 'test' });
    assert.deepEqual(services.engine.callsOf('filesChanged')[0]?.args[0], [{ path: FILE, kind: 'changed' }]);
  });

  it('a given range is used as is (no diagnostics call)', async () => {
    const services = setup();
    services.engine.codeActionItems = [codeAction('Fix', { kind: 'quickfix', edit: fixEdit('a') })];
    await quickfixApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', range: range(0, 0, 0, 1) }, services, invocation(true));
    assert.equal(services.engine.callsOf('diagnostics').length, 0);
    assert.deepEqual(services.engine.callsOf('codeActions')[0]?.args[1], range(0, 0, 0, 1));
  });

  it('no error and no range is UNKNOWN saying why', async () => {
    const services = setup();
    services.engine.diagnosticsFor = (t) => ({ path: t.path, version: 1, state: 'pending', diagnostics: [diag('warning', range(0, 0))], servers: [] });
    await assert.rejects(
      quickfixApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true)),
      actionError('LSP_ACTION_UNKNOWN', /no error diagnostics yet \(diagnostics are pending/),
    );
  });

  it('defaults only to quickfix kinds, title wins over index, kindless dropped', async () => {
    const services = setup();
    services.engine.codeActionItems = [
      codeAction('Extract', { kind: 'refactor.extract', edit: fixEdit('x') }),
      codeAction('Kindless', { edit: fixEdit('k') }),
      codeAction('First fix', { kind: 'quickfix', edit: fixEdit('f') }),
      codeAction('Second fix', { kind: 'quickfix.spelling', edit: fixEdit('s') }),
    ];
    const byIndex = await quickfixApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', index: 1 }, services, invocation(true));
    assert.equal(byIndex.kind === 'quickfixApplied' && byIndex.title, 'Second fix');
    services.writer.disk.set(FILE, TEXT);
    const byTitle = await quickfixApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', title: 'First fix', index: 1 }, services, invocation(true));
    assert.equal(byTitle.kind === 'quickfixApplied' && byTitle.title, 'First fix');
    services.writer.disk.set(FILE, TEXT);
    const anyKind = await quickfixApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', only: [] }, services, invocation(true));
    assert.equal(anyKind.kind === 'quickfixApplied' && anyKind.title, 'Extract');
  });

  it('an empty list with index 0 is UNKNOWN', async () => {
    const services = setup();
    await assert.rejects(
      quickfixApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true)),
      actionError('LSP_ACTION_UNKNOWN', /no quick fix is available here/),
    );
  });

  it('resolves an item that needs it before applying', async () => {
    const services = setup();
    services.engine.codeActionItems = [codeAction('Lazy', { kind: 'quickfix', needsResolve: true })];
    services.engine.resolveCodeActionImpl = (item) => ({ ...item, needsResolve: false, edit: fixEdit('z') });
    const result = await quickfixApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true));
    assert.equal(services.engine.callsOf('resolveCodeAction').length, 1);
    assert.equal(result.kind, 'quickfixApplied');
    assert.equal(services.writer.disk.get(FILE), 'const a = 1;\nconst b = z;\n');
  });

  it('never runs commands: edit+command applies the edit only; command-only is UNKNOWN', async () => {
    const services = setup();
    const command = { title: 'Run', command: 'x.run' };
    services.engine.codeActionItems = [codeAction('Both', { kind: 'quickfix', edit: fixEdit('a'), command }), codeAction('Cmd', { kind: 'quickfix', command })];
    await quickfixApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true));
    assert.equal(services.engine.callsOf('executeCommand').length, 0);
    await assert.rejects(
      quickfixApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', title: 'Cmd' }, services, invocation(true)),
      actionError('LSP_ACTION_UNKNOWN', /is command-only; quickfix\.apply never runs commands/),
    );
    assert.equal(services.engine.callsOf('executeCommand').length, 0);
  });

  it('a disabled action is UNKNOWN with the reason', async () => {
    const services = setup();
    services.engine.codeActionItems = [codeAction('Nope', { kind: 'quickfix', disabled: 'not here', edit: fixEdit('a') })];
    await assert.rejects(quickfixApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true)), actionError('LSP_ACTION_UNKNOWN', /disabled by the server: not here/));
  });

  it('a file changed since the server saw it is a CONFLICT; nothing written', async () => {
    const services = setup();
    services.writer.disk.set(FILE, `${TEXT}// edited meanwhile\n`);
    services.engine.codeActionItems = [codeAction('Fix', { kind: 'quickfix', edit: fixEdit('a') })];
    await assert.rejects(quickfixApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true)), actionError('LSP_ACTION_CONFLICT'));
    assert.equal(services.writer.disk.get(FILE), `${TEXT}// edited meanwhile\n`);
    assert.equal(services.engine.callsOf('filesChanged').length, 0);
  });

  it('a fix that changes nothing is exactly { kind: unchanged, filePath }', async () => {
    const services = setup();
    services.engine.codeActionItems = [codeAction('Noop', { kind: 'quickfix', edit: fixEdit('c') })];
    const result = await quickfixApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true));
    assert.deepEqual(result, { kind: 'unchanged', filePath: 'a.ts' });
  });

  it('without a write grant nothing is written', async () => {
    const services = setup();
    services.engine.codeActionItems = [codeAction('Fix', { kind: 'quickfix', edit: fixEdit('a') })];
    await assert.rejects(quickfixApplyAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(false)), actionError('LSP_ACTION_READ_ONLY'));
    assert.equal(services.writer.requests.length, 0);
  });
});
