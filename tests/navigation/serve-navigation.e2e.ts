/**
 * Issue 22 on the editor protocol: `dsh-lsp-actions serve` (built `lib/`) with the real embedded
 * typescript-language-server on the navigation fixture. The additive actions
 * (`implementation.get`, `callHierarchy.get`) and the additive params (`symbol`, `nearest`,
 * `withSource`, `markDeclarations`) answer with exact places, zero-based; a request without them
 * keeps the old shape; an unsettled target fails with its candidates on the wire.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startEditorClient, type EditorClient, type Frame } from '../support/editor-client.ts';
import { createNavigationWorkspace, type NavigationWorkspace } from './navigation-fixtures.ts';

const places = (result: Frame, key = 'locations'): string[] =>
  (result[key] as Frame[]).map((l) => `${l['filePath']}:${l['range']['start']['line']}:${l['range']['start']['character']}`);

describe('navigation over the editor protocol (serve, real typescript-language-server)', { timeout: 300_000 }, () => {
  let ws: NavigationWorkspace;
  let editor: EditorClient;
  before(() => {
    ws = createNavigationWorkspace('ts');
    editor = startEditorClient(['--workspace', ws.root, '--sandbox', 'read-only']);
  });
  after(() => {
    editor.child.kill('SIGKILL');
    rmSync(ws.root, { recursive: true, force: true });
  });

  it('lists the two new actions as read-only', async () => {
    const list = (await editor.request('lsp.actions.list', {}))['result'] as Frame;
    const actions = new Map((list['actions'] as Frame[]).map((a) => [a['action'], a['writes']]));
    assert.equal(actions.get('implementation.get'), false);
    assert.equal(actions.get('callHierarchy.get'), false);
  });

  it('implementation.get by position and by symbol: the two implementations, zero-based, with lineText on request', async () => {
    const root = ws.root;
    const byPosition = await editor.run('implementation.get', { workspaceRoot: root, filePath: 'src/shapes.ts', position: { line: 3, character: 2 } });
    assert.equal(byPosition['status'], 'succeeded', JSON.stringify(byPosition));
    assert.deepEqual(places(byPosition['result']), ['src/circle.ts:4:2', 'src/square.ts:4:2']);
    assert.equal((byPosition['result']['locations'] as Frame[])[0]?.['lineText'], undefined, 'no lineText unless asked');
    const byName = await editor.run('implementation.get', { workspaceRoot: root, symbol: 'Shape.area', withSource: true });
    assert.equal(byName['status'], 'succeeded', JSON.stringify(byName));
    assert.deepEqual(places(byName['result']), ['src/circle.ts:4:2', 'src/square.ts:4:2']);
    assert.equal((byName['result']['locations'] as Frame[])[0]?.['lineText'], '  area(): number {');
    assert.deepEqual([byName['result']['filePath'], byName['result']['position'], byName['result']['name']], ['src/shapes.ts', { line: 3, character: 2 }, 'area']);
  });

  it('callHierarchy.get incoming: one entry per call site with its caller', async () => {
    const answer = await editor.run('callHierarchy.get', { workspaceRoot: ws.root, filePath: 'src/format.ts', position: { line: 3, character: 16 }, direction: 'incoming' });
    assert.equal(answer['status'], 'succeeded', JSON.stringify(answer));
    const result = answer['result'] as Frame;
    assert.deepEqual((result['items'] as Frame[]).map((i) => i['name']), ['describe']);
    assert.deepEqual(
      (result['calls'] as Frame[]).map((c) => `${c['filePath']}:${c['range']['start']['line']}:${c['range']['start']['character']} ${c['other']['name']}`),
      ['src/cart.ts:13:33 summary', 'src/main.ts:8:12 main.ts', 'src/report.ts:4:9 report'],
    );
  });

  it('references.get keeps its old shape without the new params, and marks the declaration with markDeclarations', async () => {
    const plain = await editor.run('references.get', { workspaceRoot: ws.root, filePath: 'src/main.ts', position: { line: 8, character: 12 } });
    assert.equal(plain['status'], 'succeeded', JSON.stringify(plain));
    assert.deepEqual(Object.keys(plain['result']).sort(), ['filePath', 'kind', 'locations', 'position', 'total', 'truncated']);
    assert.ok((plain['result']['locations'] as Frame[]).every((l) => Object.keys(l).sort().join() === 'filePath,range'));
    const marked = await editor.run('references.get', { workspaceRoot: ws.root, filePath: 'src/main.ts', position: { line: 8, character: 12 }, markDeclarations: true });
    assert.deepEqual((marked['result']['locations'] as Frame[]).filter((l) => l['declaration'] === true).map((l) => l['filePath']), ['src/format.ts']);
  });

  it('an unsettled target fails with LSP_ACTION_NO_SYMBOL as the reason and the candidates in error.details', async () => {
    const blank = await editor.run('definition.get', { workspaceRoot: ws.root, filePath: 'src/main.ts', position: { line: 4, character: 0 }, nearest: true });
    assert.equal(blank['status'], 'failed', JSON.stringify(blank));
    assert.equal(blank['error']['code'], 'LSP_ACTION_UNAVAILABLE');
    assert.equal(blank['error']['reason'], 'LSP_ACTION_NO_SYMBOL');
    assert.ok((blank['error']['details']['candidates'] as Frame[]).some((c) => c['name'] === 'cart' && c['position']['line'] === 5), JSON.stringify(blank['error']));
    const exact = await editor.run('definition.get', { workspaceRoot: ws.root, filePath: 'src/main.ts', position: { line: 4, character: 0 } });
    assert.equal(exact['status'], 'succeeded', 'without nearest the position is asked as given');
    assert.deepEqual(exact['result']['locations'], []);
  });
});
