/**
 * Issue 4, end to end exactly as an editor would: spawn `dsh-lsp-actions serve`, then
 * list → diagnostics.get on a real type error (cold server, non-empty) → codeActions.list →
 * quickfix.apply of typescript-language-server's "Add import" fix → the file has no errors →
 * format → rename, with the events arriving in order; and a read-only preset refuses writes.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEditorClient, type EditorClient, type Frame } from '../support/editor-client.ts';

const SAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'sample');

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lsp-actions-editor-'));
  cpSync(SAMPLE, dir, { recursive: true });
  writeFileSync(join(dir, 'src', 'messy.ts'), 'export   const  answer=42 ;\nexport function twice( n:number ){return n*2}\n');
  return dir;
}

describe('serve as an editor drives it (real typescript-language-server)', { timeout: 300_000 }, () => {
  let ws: string;
  let editor: EditorClient;
  before(() => {
    ws = workspace();
    editor = startEditorClient(['--workspace', ws, '--sandbox', 'workspace-write']);
  });
  after(async () => {
    editor.child.kill('SIGKILL');
    rmSync(ws, { recursive: true, force: true });
  });

  it('lists, diagnoses, fixes, formats and renames, with events in order', async () => {
    const list = (await editor.request('lsp.actions.list', {}))['result'] as Frame;
    assert.equal(list['protocol'], 'lsp-actions/v1');
    assert.equal(list['version'], 1);
    assert.deepEqual(
      (list['actions'] as Frame[]).slice(0, 4).map((a) => [a['action'], a['writes']]),
      [['diagnostics.get', false], ['completion.get', false], ['quickfix.apply', true], ['format', true]],
    );
    editor.notify('lsp.events', { subscribe: true });

    // Cold server: the first answer already holds the real error.
    const diag = await editor.run('diagnostics.get', { filePath: 'src/main.ts', workspaceRoot: ws }, 'diag-1');
    assert.equal(diag['status'], 'succeeded', JSON.stringify(diag));
    assert.equal(diag['requestId'], 'diag-1');
    const missing = (diag['result']['diagnostics'] as Frame[]).find((d) => String(d['code']) === '2304');
    assert.ok(missing, JSON.stringify(diag['result']));
    assert.equal(missing['severity'], 1);
    assert.equal(diag['result']['filePath'], 'src/main.ts');

    const listed = await editor.run('codeActions.list', { filePath: 'src/main.ts', workspaceRoot: ws, range: missing['range'] });
    assert.equal(listed['status'], 'succeeded', JSON.stringify(listed));
    const titles = (listed['result']['actions'] as Frame[]).map((a) => String(a['title']));
    const addImport = titles.find((t) => /Add import from "\.\/geometry(\.js)?"/.test(t));
    assert.ok(addImport, titles.join(' | '));

    const fix = await editor.run(
      'quickfix.apply',
      { filePath: 'src/main.ts', workspaceRoot: ws, range: missing['range'], title: addImport },
      'fix-1',
    );
    assert.equal(fix['status'], 'succeeded', JSON.stringify(fix));
    assert.equal(fix['result']['kind'], 'quickfixApplied');
    assert.equal(fix['result']['filesChanged'], 1);
    assert.match(readFileSync(join(ws, 'src', 'main.ts'), 'utf8'), /import \{ distance \} from ['"]\.\/geometry(\.js)?['"]/);

    const fixed = await editor.run('diagnostics.get', { filePath: 'src/main.ts', workspaceRoot: ws }, 'diag-2');
    assert.equal(fixed['status'], 'succeeded', JSON.stringify(fixed));
    assert.equal(fixed['result']['state'], 'fresh');
    assert.deepEqual((fixed['result']['diagnostics'] as Frame[]).filter((d) => d['severity'] === 1), []);

    const format = await editor.run('format', { filePath: 'src/messy.ts', workspaceRoot: ws }, 'fmt-1');
    assert.equal(format['status'], 'succeeded', JSON.stringify(format));
    assert.equal(format['result']['kind'], 'formatted');
    assert.equal(readFileSync(join(ws, 'src', 'messy.ts'), 'utf8'), format['result']['after']);
    assert.match(format['result']['after'], /export const answer = 42;/);

    const geometry = readFileSync(join(ws, 'src', 'geometry.ts'), 'utf8').split('\n');
    const line = geometry.findIndex((l) => l.includes('function distance'));
    const character = (geometry[line] ?? '').indexOf('distance');
    const rename = await editor.run(
      'rename',
      { filePath: 'src/geometry.ts', workspaceRoot: ws, position: { line, character }, newName: 'euclid' },
      'ren-1',
    );
    assert.equal(rename['status'], 'succeeded', JSON.stringify(rename));
    assert.match(readFileSync(join(ws, 'src', 'geometry.ts'), 'utf8'), /function euclid\(/);
    assert.match(readFileSync(join(ws, 'src', 'main.ts'), 'utf8'), /euclid\(\{ x: 0/);

    // Events: per run, started → (diagnostics.updated | file.changed)… → succeeded, in order.
    const seq = (requestId: string): string[] =>
      editor.events
        .filter((e) => e['requestId'] === requestId)
        .map((e) => (e['kind'] === 'action.status' ? `status:${e['status']}` : String(e['kind'])));
    assert.deepEqual(seq('diag-1'), ['status:started', 'diagnostics.updated', 'status:succeeded']);
    assert.deepEqual(seq('fix-1'), ['status:started', 'file.changed', 'status:succeeded']);
    assert.deepEqual(seq('fmt-1'), ['status:started', 'file.changed', 'status:succeeded']);
    assert.equal(seq('ren-1')[0], 'status:started');
    assert.equal(seq('ren-1').at(-1), 'status:succeeded');
    assert.ok(seq('ren-1').filter((k) => k === 'file.changed').length >= 2, seq('ren-1').join(','));
    const updated = editor.events.find((e) => e['kind'] === 'diagnostics.updated' && e['requestId'] === 'diag-1');
    assert.equal(updated?.['filePath'], 'src/main.ts');
    assert.deepEqual(editor.junk, [], 'stdout carries frames only');

    assert.equal(await editor.close(), 0, editor.stderr());
  });
});

describe('serve under a read-only preset', { timeout: 180_000 }, () => {
  it('refuses write actions before any server round-trip and writes nothing', async () => {
    const ws = workspace();
    const editor = startEditorClient(['--workspace', ws, '--sandbox', 'read-only']);
    try {
      const original = readFileSync(join(ws, 'src', 'messy.ts'), 'utf8');
      const format = await editor.run('format', { filePath: 'src/messy.ts', workspaceRoot: ws }, 'ro-1');
      assert.equal(format['status'], 'failed');
      assert.equal(format['error']['code'], 'LSP_ACTION_READ_ONLY');
      assert.equal(format['requestId'], 'ro-1');
      const fix = await editor.run('quickfix.apply', { filePath: 'src/main.ts', workspaceRoot: ws });
      assert.equal(fix['error']['code'], 'LSP_ACTION_READ_ONLY');
      assert.equal(readFileSync(join(ws, 'src', 'messy.ts'), 'utf8'), original);
      const read = await editor.run('diagnostics.get', { filePath: 'src/report.ts', workspaceRoot: ws });
      assert.equal(read['status'], 'succeeded', 'reads still work under read-only');
      assert.equal(await editor.close(), 0, editor.stderr());
    } finally {
      editor.child.kill('SIGKILL');
      rmSync(ws, { recursive: true, force: true });
    }
  });
});
