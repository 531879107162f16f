/**
 * A TypeScript 7 workspace served by `dsh-lsp-actions serve` (its own `tsc --lsp` 7.0.2, the
 * pinned typescript7 of tests/servers): where that server has no quick fix for an error (a
 * misspelt name, TS2552) the code-action answers say so — `codeActions.list`'s `note`, and
 * `quickfix.apply`'s refusal — and where it has one ("Add import", TS2304) they do not. Issue 21.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { testServersInstalled } from '../support/servers.ts';
import { REPO } from './cli-harness.ts';
import { ServeProcess } from './serve-process.ts';

const TS7_PACKAGE = join(REPO, 'tests', 'servers', 'node_modules', 'typescript7');
const T = { timeout: 240_000 };
const SPELL = 'const count = 1;\nexport const v = countt + 1;\n';
const NOTE = /^TypeScript 7's language server \(tsc --lsp 7\.0\.2\) offers no quick fix for TS2552 here; .*No other compiler's fixes are used/;

describe('TypeScript 7 quick fixes through serve (real tsc --lsp 7.0.2)', { skip: !testServersInstalled() && 'run npm run test:servers' }, () => {
  let root = '';
  let serve: ServeProcess;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'dsh-ts7-fixes-'));
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
      'lib.ts': 'export function helper(n: number): number {\n  return n;\n}\n',
      'spell.ts': SPELL,
      'imp.ts': 'export const v = helper(1);\n',
    };
    for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text);
    mkdirSync(join(root, 'node_modules'));
    symlinkSync(TS7_PACKAGE, join(root, 'node_modules', 'typescript'));
    serve = new ServeProcess(['--workspace', root, '--sandbox', 'workspace-write'], { cwd: root });
  });
  after(async () => {
    serve.child.stdin.end();
    await serve.exited;
    rmSync(root, { recursive: true, force: true });
  });

  it('codeActions.list on an error TS 7 has no fix for: no action, and a note saying why', T, async () => {
    const envelope = await serve.run('l1', 'codeActions.list', { workspaceRoot: root, filePath: 'spell.ts' });
    assert.equal(envelope['status'], 'succeeded', JSON.stringify(envelope));
    const result = envelope['result'];
    assert.deepEqual(result.range.start, { line: 1, character: 17 }, 'the first error: countt');
    assert.deepEqual(result.actions, []);
    assert.match(result.note, NOTE);
  });

  it('codeActions.list on an error TS 7 fixes: the fix, and no note', T, async () => {
    const envelope = await serve.run('l2', 'codeActions.list', { workspaceRoot: root, filePath: 'imp.ts' });
    assert.equal(envelope['status'], 'succeeded', JSON.stringify(envelope));
    const result = envelope['result'];
    assert.ok(result.actions.some((a: { title: string }) => /import from "\.\/lib"/.test(a.title)), JSON.stringify(result.actions));
    assert.equal(result.note, undefined);
  });

  it('quickfix.apply where TS 7 has no fix: LSP_ACTION_UNKNOWN with the note, nothing written', T, async () => {
    const envelope = await serve.run('q1', 'quickfix.apply', { workspaceRoot: root, filePath: 'spell.ts' });
    assert.equal(envelope['status'], 'failed', JSON.stringify(envelope));
    assert.equal(envelope['error'].code, 'LSP_ACTION_UNKNOWN');
    assert.match(envelope['error'].message, /^no quick fix is available here .*\. TypeScript 7's language server/);
    assert.match(envelope['error'].details.note, NOTE);
    assert.equal(readFileSync(join(root, 'spell.ts'), 'utf8'), SPELL);
  });
});
