/**
 * Issue 10 in the action layer (stub engine, memory writer): an edit goes to the writer with the
 * text the server computed it against (the engine's send-time basis, not its latest copy), the
 * editor's `expectedSha256` pin, versioned documentChanges checked against our versions, and
 * organize imports keeping CRLF.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { ActionParams } from '../../src/actions/action-params.ts';
import { checkStepVersions } from '../../src/actions/apply-workspace-edit.ts';
import { formatDocumentAction } from '../../src/actions/format-document.ts';
import { keepLineEndings, usesCrlf } from '../../src/actions/keep-line-endings.ts';
import { renameSymbolAction } from '../../src/actions/rename-symbol.ts';
import { isActionError } from '../../src/errors.ts';
import { ROOT, actionError, edit, invocation, makeServices, range } from './support/action-fixtures.ts';

const A = '/ws/a.ts';
const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

const pinOf = (value: unknown) => new ActionParams({ expectedSha256: value }).escalation();
/** A versioned edit step of another document, b.ts. */
const other = (version: number) => ({ steps: [{ kind: 'edit' as const, path: '/ws/b.ts', version, edits: [] }] });

describe('edits are tied to the text they were computed against', () => {
  it('format writes against the send-time basis, not the engine\'s newer copy', async () => {
    const services = makeServices();
    services.writer.disk.set(A, 'let a=1\n');
    services.engine.docs.set(A, 'let a=1 // synced later by another request\n');
    services.engine.basis = { path: A, version: 3, text: 'let a=1\n' };
    services.engine.formatEdits = [edit(range(0, 5, 0, 6), ' = ')];
    const result = await formatDocumentAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true));
    assert.equal(result.kind, 'formatted');
    assert.equal(services.writer.requests[0]?.basis?.get(A), 'let a=1\n');
    assert.equal(services.writer.disk.get(A), 'let a = 1\n');
  });

  it('a file that moved on since the server computed the edit is a conflict, even when our copy moved with it', async () => {
    const services = makeServices();
    services.writer.disk.set(A, 'let a=1 // saved\n');
    services.engine.docs.set(A, 'let a=1 // saved\n');
    services.engine.basis = { path: A, version: 3, text: 'let a=1\n' };
    services.engine.formatEdits = [edit(range(0, 5, 0, 6), ' = ')];
    await assert.rejects(formatDocumentAction.run({ workspaceRoot: ROOT, filePath: 'a.ts' }, services, invocation(true)), actionError('LSP_ACTION_CONFLICT'));
    assert.equal(services.writer.disk.get(A), 'let a=1 // saved\n');
  });

  it('rename passes the editor pin of its document to the writer', async () => {
    const services = makeServices();
    services.writer.disk.set(A, 'const x = 1;\n');
    services.engine.docs.set(A, 'const x = 1;\n');
    services.engine.basis = { path: A, version: 1, text: 'const x = 1;\n' };
    services.engine.renameEdit = { steps: [{ kind: 'edit', path: A, edits: [edit(range(0, 6, 0, 7), 'y')] }] };
    const pin = sha('const x = 1;\n');
    await renameSymbolAction.run(
      { workspaceRoot: ROOT, filePath: 'a.ts', position: { line: 0, character: 6 }, newName: 'y', expectedSha256: pin },
      services,
      invocation(true),
    );
    assert.deepEqual([...(services.writer.requests[0]?.pins ?? [])], [[A, pin]]);
  });

  it('another file of a rename is checked against the text the server had when the request was sent, not our later copy', async () => {
    const B = '/ws/b.ts';
    const services = makeServices();
    services.writer.disk.set(A, 'export const x = 1;\n');
    services.writer.disk.set(B, "import { x } from './a';\nconsole.log(x); // saved since\n");
    services.engine.docs.set(A, 'export const x = 1;\n');
    // our copy of b.ts followed the save (a later request synced it); the server computed against the old text
    services.engine.docs.set(B, "import { x } from './a';\nconsole.log(x); // saved since\n");
    services.engine.basis = {
      path: A,
      version: 1,
      text: 'export const x = 1;\n',
      others: new Map([[B, { version: 2, text: "import { x } from './a';\nconsole.log(x);\n" }]]),
    };
    services.engine.renameEdit = {
      steps: [
        { kind: 'edit', path: A, edits: [edit(range(0, 13, 0, 14), 'y')] },
        { kind: 'edit', path: B, edits: [edit(range(0, 9, 0, 10), 'y'), edit(range(1, 12, 1, 13), 'y')] },
      ],
    };
    await assert.rejects(
      renameSymbolAction.run({ workspaceRoot: ROOT, filePath: 'a.ts', position: { line: 0, character: 13 }, newName: 'y' }, services, invocation(true)),
      actionError('LSP_ACTION_CONFLICT'),
    );
    assert.equal(services.writer.requests[0]?.basis?.get(B), "import { x } from './a';\nconsole.log(x);\n");
    assert.equal(services.writer.disk.get(B), "import { x } from './a';\nconsole.log(x); // saved since\n", 'b.ts untouched');
    assert.equal(services.writer.disk.get(A), 'export const x = 1;\n', 'a.ts untouched');
  });

  it('a versioned step of another document is checked against its send-time version', () => {
    const basis = { path: A, version: 4, text: '', others: new Map([['/ws/b.ts', { version: 7, text: '' }]]) };
    assert.doesNotThrow(() => checkStepVersions(other(7), basis, () => ({ version: 8 })));
    assert.throws(() => checkStepVersions(other(8), basis, () => ({ version: 8 })), (error: unknown) => isActionError(error) && error.details.reason === 'version-mismatch');
  });

  it('expectedSha256 must be 64 hex digits; it is lowercased', () => {
    assert.equal(pinOf('AB'.repeat(32)).expectedSha256, 'ab'.repeat(32));
    for (const bad of ['abc', 'g'.repeat(64), 42]) {
      assert.throws(() => pinOf(bad), (error: unknown) => isActionError(error) && error.code === 'LSP_ACTION_INVALID_ARGS');
    }
  });

  it('a versioned documentChanges entry must name the version we synced', () => {
    const basis = { path: A, version: 4, text: '' };
    const step = (version: number) => ({ steps: [{ kind: 'edit' as const, path: A, version, edits: [] }] });
    assert.doesNotThrow(() => checkStepVersions(step(4), basis, () => undefined));
    assert.throws(
      () => checkStepVersions(step(3), basis, () => undefined),
      (error: unknown) => isActionError(error) && error.code === 'LSP_ACTION_CONFLICT' && error.details.reason === 'version-mismatch',
    );
    assert.throws(() => checkStepVersions({ steps: [{ kind: 'edit', path: '/ws/b.ts', version: 1, edits: [] }] }, basis, () => ({ version: 2 })));
  });

  it('organize imports keeps CRLF: bare LF in new text becomes CRLF for CRLF files only', () => {
    assert.equal(usesCrlf('a\r\nb\r\n'), true);
    assert.equal(usesCrlf('a\r\nb\n'), false);
    assert.equal(usesCrlf('ab'), false);
    const e = { steps: [{ kind: 'edit' as const, path: A, edits: [edit(range(0, 0), 'import a;\nimport b;\r\n')] }] };
    const crlf = keepLineEndings(e, () => 'x\r\n');
    assert.equal(crlf.steps[0]?.kind === 'edit' && crlf.steps[0].edits[0]?.newText, 'import a;\r\nimport b;\r\n');
    const lf = keepLineEndings(e, () => 'x\n');
    assert.equal(lf.steps[0]?.kind === 'edit' && lf.steps[0].edits[0]?.newText, 'import a;\nimport b;\r\n');
  });
});
