/**
 * `codeActions.list`: range choice, kind filter, indices, resolve for previews, caps.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codeActionsListAction } from '../../src/actions/code-actions-list.ts';
import { ROOT, codeAction, diag, edit, invocation, makeServices, range } from './support/action-fixtures.ts';

const A = '/ws/a.ts';

describe('codeActions.list', () => {
  it('lists actions for the first error with indices, flags, commands and previews', async () => {
    const services = makeServices();
    services.engine.docs.set(A, 'const b = c;\n');
    services.engine.diagnosticsFor = (t) => ({ path: t.path, version: 1, state: 'fresh', diagnostics: [diag('error', range(0, 10, 0, 11), "Cannot find name 'c'.")], servers: [] });
    services.engine.codeActionItems = [
      codeAction('Add import', { kind: 'quickfix', isPreferred: true, diagnostics: [diag('error', range(0, 10, 0, 11), "Cannot find name 'c'.")], edit: { steps: [{ kind: 'edit', path: A, edits: [edit(range(0, 0), 'import { c } from "./c";\n')] }] } }),
      codeAction('Lazy', { kind: 'refactor.inline', needsResolve: true }),
      codeAction('Cmd', { kind: 'quickfix', command: { title: 'Cmd', command: 'x.cmd', arguments: [] }, disabled: 'no' }),
    ];
    services.engine.resolveCodeActionImpl = (item) => ({ ...item, needsResolve: false, edit: { steps: [{ kind: 'edit', path: A, edits: [edit(range(0, 6, 0, 7), 'x')] }] } });
    const result = await codeActionsListAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation());
    assert.deepEqual(result.range, range(0, 10, 0, 11));
    assert.equal(result.total, 3);
    assert.deepEqual(result.actions[0], {
      index: 0,
      title: 'Add import',
      isPreferred: true,
      serverId: 'ts',
      diagnostics: ["Cannot find name 'c'."],
      kind: 'quickfix',
      preview: {
        files: [{ filePath: 'a.ts', edits: [edit(range(0, 0), 'import { c } from "./c";\n')], diff: ['@@ -1,2 +1,3 @@', '+import { c } from "./c";', ' const b = c;', ' '].join('\n') }],
        resourceOperations: [],
        editCount: 1,
      },
    });
    assert.equal(result.actions[1]?.preview?.editCount, 1, 'resolved for its preview');
    assert.deepEqual(result.actions[2], { index: 2, title: 'Cmd', isPreferred: false, serverId: 'ts', diagnostics: [], kind: 'quickfix', disabled: 'no', command: { title: 'Cmd', command: 'x.cmd' } });
  });

  it('without an error lists source actions at the start of the file; filters by only; caps; preview:false skips resolve', async () => {
    const services = makeServices({ config: { maxItems: 1 } });
    services.engine.codeActionItems = [codeAction('Organize', { kind: 'source.organizeImports', needsResolve: true }), codeAction('Fix', { kind: 'quickfix' }), codeAction('Other source', { kind: 'source.fixAll' })];
    const result = await codeActionsListAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', only: ['source'], preview: false }, services, invocation());
    assert.deepEqual(services.engine.callsOf('codeActions')[0]?.args.slice(1), [range(0, 0), ['source']]);
    assert.deepEqual(result.actions.map((a) => a.title), ['Organize']);
    assert.equal(result.total, 2);
    assert.equal(result.truncated, true);
    assert.equal(services.engine.callsOf('resolveCodeAction').length, 0);
    assert.equal(result.actions[0]?.preview, undefined);
  });
});
