/**
 * A 50 MB `.ts` file inside a real TypeScript project (the embedded typescript-language-server
 * preset): tsserver would load it itself and wedge for tens of minutes; with the preset's
 * preloaded guard it sees the file as empty, so actions on the small files next to it answer,
 * and the large file itself is refused with `LSP_ACTION_FILE_TOO_LARGE`.
 */
import assert from 'node:assert/strict';
import { closeSync, openSync, writeSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { isActionError } from '../../src/errors.ts';
import { embeddedTypeScriptServer } from '../../src/presets/embedded-typescript.ts';
import { makeConfig, makeWorkspace, startEngine, type EngineFixture, type Workspace } from './engine-fixture.ts';

const T = { timeout: 300_000 };
let ws: Workspace;
let f: EngineFixture;

before(async () => {
  ws = await makeWorkspace('large-sibling-');
  await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true}}');
  await ws.write('small.ts', 'export function twice(n: number): number { return n * 2; }\nexport const s: string = twice(2);\n');
  const fd = openSync(ws.path('huge.ts'), 'w');
  let lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < 50 * 1024 * 1024; i++) {
    const line = `export const v${i}: number = ${i};\n`;
    lines.push(line);
    bytes += line.length;
    if (lines.length === 10_000) {
      writeSync(fd, lines.join(''));
      lines = [];
    }
  }
  writeSync(fd, lines.join(''));
  closeSync(fd);
  f = await startEngine(makeConfig({ typescript: embeddedTypeScriptServer() as unknown as Record<string, unknown> }));
});
after(async () => {
  await f.close();
  await ws.remove();
});

describe('a 50 MB sibling .ts file', () => {
  it('does not wedge tsserver: small-file diagnostics are fresh and hover answers', T, async () => {
    const t = { root: ws.root, path: ws.path('small.ts') };
    const d = await f.engine.diagnostics(t);
    assert.equal(d.state, 'fresh');
    assert.deepEqual(d.diagnostics.map((x) => x.code), [2322]);
    const hover = await f.engine.hover(t, { line: 0, character: 17 }, { signal: AbortSignal.timeout(120_000) });
    assert.match(hover?.contents ?? '', /function twice\(n: number\): number/);
    assert.ok(f.logs.some((l) => /huge\.ts \(\d+ bytes\) is larger than \d+ bytes; tsserver sees it as empty/.test(l)), 'the guard kept it from tsserver');
  });

  it('refuses actions on the large file itself with LSP_ACTION_FILE_TOO_LARGE', T, async () => {
    await assert.rejects(f.engine.diagnostics({ root: ws.root, path: ws.path('huge.ts') }), (error: unknown) => isActionError(error) && error.code === 'LSP_ACTION_FILE_TOO_LARGE');
  });
});
