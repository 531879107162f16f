/**
 * Issue 18: a client's impatience never kills the server for everyone. `serve` with the real
 * typescript-language-server: twelve well-formed `diagnostics.get` with `waitMs: 1` (each with new
 * unsaved text, so each asks tsserver and gives up after 1 ms) are answered — `pending` or
 * `fresh`, never a server failure — and the server is never stopped or restarted: the next
 * ordinary call answers fresh from the same process.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEditorClient, type EditorClient, type Frame } from '../support/editor-client.ts';

const SAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'sample');
const RESTARTED = /stopped answering meaningfully|restarting in \d+ ms|will not be restarted/;

describe('twelve diagnostics.get with waitMs: 1 (real typescript-language-server)', { timeout: 300_000 }, () => {
  let ws: string;
  let editor: EditorClient;
  before(() => {
    ws = mkdtempSync(join(tmpdir(), 'lsp-actions-impatient-'));
    cpSync(SAMPLE, ws, { recursive: true });
    editor = startEditorClient(['--workspace', ws]);
  });
  after(() => {
    editor.child.kill('SIGKILL');
    rmSync(ws, { recursive: true, force: true });
  });

  it('answers each one and never stops the server', async () => {
    const main = readFileSync(join(ws, 'src', 'main.ts'), 'utf8');
    const cold = await editor.run('diagnostics.get', { filePath: 'src/main.ts', workspaceRoot: ws });
    assert.equal(cold['status'], 'succeeded', JSON.stringify(cold));
    assert.equal(cold['result']['state'], 'fresh');
    const states: string[] = [];
    for (let i = 0; i < 12; i++) {
      const text = `${main}\nexport const n${i}: number = ${i};\n`;
      const quick = await editor.run('diagnostics.get', { filePath: 'src/main.ts', workspaceRoot: ws, text, waitMs: 1 });
      assert.equal(quick['status'], 'succeeded', JSON.stringify(quick));
      states.push(String(quick['result']['state']));
    }
    assert.ok(states.every((s) => s === 'pending' || s === 'fresh'), states.join(' '));
    assert.ok(states.includes('pending'), `the 1 ms budget ran out at least once: ${states.join(' ')}`);
    assert.doesNotMatch(editor.stderr(), RESTARTED);

    const text = `${main}\nexport const last: string = 1;\n`;
    const final = await editor.run('diagnostics.get', { filePath: 'src/main.ts', workspaceRoot: ws, text });
    assert.equal(final['status'], 'succeeded', JSON.stringify(final));
    assert.equal(final['result']['state'], 'fresh');
    const codes = (final['result']['diagnostics'] as Frame[]).map((d) => String(d['code'])).sort();
    assert.deepEqual(codes, ['2304', '2322'], JSON.stringify(final['result']));
    assert.doesNotMatch(editor.stderr(), RESTARTED);
  });
});
