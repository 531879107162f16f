/**
 * `diagnosticsMany`'s `onAnswered` (the progress of `check`) on the real
 * typescript-language-server: called once per file as its answer arrives, before the call
 * resolves — so the progress line advances file by file, not batch by batch.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TSLS_ENTRY } from '../support/servers.ts';
import { makeConfig, makeWorkspace, startEngine } from './engine-fixture.ts';

describe('diagnosticsMany onAnswered (tsls)', () => {
  it('reports each file once, as it is answered, before the batch resolves', { timeout: 180_000 }, async () => {
    const ws = await makeWorkspace('batch-progress-');
    await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true}}');
    const paths: string[] = [];
    for (let i = 0; i < 12; i++) paths.push(await ws.write(`src/f${i}.ts`, `export const v${i}: number = ${i % 3 === 0 ? '"x"' : i};\n`));
    const engine = await startEngine(makeConfig({ tsls: TSLS_ENTRY }));
    try {
      const answered: string[] = [];
      let resolved = false;
      const pending = engine.engine.diagnosticsMany(ws.root, paths, {
        onAnswered: (path) => {
          assert.equal(resolved, false, 'answered before the batch resolved');
          answered.push(path);
        },
      });
      const many = await pending;
      resolved = true;
      assert.deepEqual([...answered].sort(), [...paths].sort());
      assert.equal(new Set(answered).size, paths.length, 'each file once');
      // The first file loads the project; it is answered first.
      assert.equal(answered[0], paths[0]);
      assert.equal(many.filter((e) => !('error' in e) && e.diagnostics.some((d) => d.code === 2322)).length, 4);
    } finally {
      await engine.close();
      await ws.remove();
    }
  });
});
