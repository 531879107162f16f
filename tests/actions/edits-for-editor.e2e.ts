/**
 * `format.edits`, `rename.prepare` and `rename.edits` over `serve` with the real
 * typescript-language-server: the edits an editor applies itself (VS Code's Format Document,
 * format on save and F2 providers), computed for the editor's unsaved text, each file with the
 * SHA-256 of the text the server computed against; nothing is written, even under read-only.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEditorClient, type EditorClient, type Frame } from '../support/editor-client.ts';

const SAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'sample');
const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('edits for an editor to apply (format.edits, rename.prepare, rename.edits), real tsls', { timeout: 300_000 }, () => {
  let ws: string;
  let editor: EditorClient;
  before(() => {
    ws = mkdtempSync(join(tmpdir(), 'lsp-actions-edits-'));
    cpSync(SAMPLE, ws, { recursive: true });
    writeFileSync(join(ws, 'src', 'messy.ts'), 'export const a = 1;\n');
    writeFileSync(join(ws, 'src', 'uses.ts'), "import { distance } from './geometry.js';\n\nexport const d = distance({ x: 0, y: 0 }, { x: 3, y: 4 });\n");
    // read-only: these actions write nothing, so the preset does not stop them.
    editor = startEditorClient(['--workspace', ws, '--sandbox', 'read-only']);
  });
  after(async () => {
    await editor.close();
    rmSync(ws, { recursive: true, force: true });
  });

  it('format.edits formats the unsaved text, pins it, writes nothing', async () => {
    const text = 'export   const  a=1 ;\nexport   const  b=2 ;\n';
    const run = await editor.run('format.edits', { filePath: 'src/messy.ts', workspaceRoot: ws, text });
    assert.equal(run['status'], 'succeeded', JSON.stringify(run));
    const result = run['result'] as Frame;
    assert.equal(result['kind'], 'formatEdits');
    assert.equal(result['basisSha256'], sha(text));
    assert.ok((result['edits'] as Frame[]).length > 0);
    assert.equal(readFileSync(join(ws, 'src', 'messy.ts'), 'utf8'), 'export const a = 1;\n', 'nothing written');
    const ranged = await editor.run('format.edits', {
      filePath: 'src/messy.ts',
      workspaceRoot: ws,
      text,
      range: { start: { line: 1, character: 0 }, end: { line: 1, character: 21 } },
    });
    assert.equal(ranged['status'], 'succeeded', JSON.stringify(ranged));
    for (const edit of ranged['result']['edits'] as Frame[]) assert.equal(edit['range']['start']['line'], 1, JSON.stringify(edit));
  });

  it('rename.prepare names the symbol; rename.edits returns the edits per file with their basis, writes nothing', async () => {
    const geometry = readFileSync(join(ws, 'src', 'geometry.ts'), 'utf8');
    const lines = geometry.split('\n');
    const line = lines.findIndex((l) => l.includes('function distance'));
    const position = { line, character: (lines[line] ?? '').indexOf('distance') + 2 };
    // uses.ts open on the server, so its basis is known too.
    const uses = readFileSync(join(ws, 'src', 'uses.ts'), 'utf8');
    await editor.run('diagnostics.get', { filePath: 'src/uses.ts', workspaceRoot: ws });
    const prepared = await editor.run('rename.prepare', { filePath: 'src/geometry.ts', workspaceRoot: ws, position });
    assert.equal(prepared['status'], 'succeeded', JSON.stringify(prepared));
    assert.equal(prepared['result']['found'], true);
    assert.equal(prepared['result']['range']['start']['character'], (lines[line] ?? '').indexOf('distance'));
    const blank = { line: lines.findIndex((l) => l.trim() === ''), character: 0 };
    const nothing = await editor.run('rename.prepare', { filePath: 'src/geometry.ts', workspaceRoot: ws, position: blank });
    assert.equal(nothing['status'], 'succeeded', JSON.stringify(nothing));
    assert.equal(nothing["result"]["found"], false, JSON.stringify(nothing));

    const renamed = await editor.run('rename.edits', { filePath: 'src/geometry.ts', workspaceRoot: ws, position, newName: 'euclid', text: geometry });
    assert.equal(renamed['status'], 'succeeded', JSON.stringify(renamed));
    const files = renamed['result']['files'] as Frame[];
    assert.deepEqual(files.map((f) => f['filePath']).sort(), ['src/geometry.ts', 'src/uses.ts']);
    const own = files.find((f) => f['filePath'] === 'src/geometry.ts');
    assert.equal(own?.['basisSha256'], sha(geometry));
    assert.equal(files.find((f) => f['filePath'] === 'src/uses.ts')?.['basisSha256'], sha(uses));
    assert.ok(own);
    assert.ok((own['edits'] as Frame[]).every((e) => e['newText'] === 'euclid'));
    assert.equal(renamed['result']['resourceOperations'], 0);
    assert.equal(readFileSync(join(ws, 'src', 'geometry.ts'), 'utf8'), geometry, 'nothing written');

    const refused = await editor.run('rename.edits', { filePath: 'src/geometry.ts', workspaceRoot: ws, position: blank, newName: 'x' });
    assert.equal(refused['status'], 'failed', JSON.stringify(refused));
    assert.equal(refused['error']['reason'], 'LSP_ACTION_NO_SYMBOL', JSON.stringify(refused));
  });
});
