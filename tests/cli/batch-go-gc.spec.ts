/**
 * `batchGoGc`: `check`'s Go processes collect less often, unless the user chose a pace or a
 * memory limit for Go programs; and `check` really hands it to the processes it starts (the
 * listing's environment is read back from a fake compiler that prints it).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BATCH_GOGC, batchGoGc } from '../../src/cli/batch-go-gc.ts';
import { listNativeProgram } from '../../src/cli/native-program-listing.ts';

const root = mkdtempSync(join(tmpdir(), 'batch-go-gc-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('batchGoGc', () => {
  it('sets GOGC for a run whose environment names no Go setting', () => {
    assert.deepEqual(batchGoGc({ PATH: '/usr/bin' }), { GOGC: BATCH_GOGC });
  });

  it("leaves the user's GOGC or GOMEMLIMIT alone", () => {
    assert.deepEqual(batchGoGc({ GOGC: '100' }), {});
    assert.deepEqual(batchGoGc({ GOMEMLIMIT: '512MiB' }), {});
  });

  it('reaches the native listing process', async () => {
    const file = join(root, 'a.ts');
    writeFileSync(file, 'export {};\n');
    const fake = join(root, 'fake-tsc.sh');
    // prints one "file" named after the GOGC it was given
    writeFileSync(fake, `#!/bin/sh\necho "${root}/gogc-\${GOGC:-unset}.ts"\n`, { mode: 0o755 });
    const saved = process.env['GOGC'];
    delete process.env['GOGC'];
    try {
      const listing = await listNativeProgram({ command: fake, args: [] }, join(root, 'tsconfig.json'));
      assert.deepEqual(listing.files, [join(root, `gogc-${BATCH_GOGC}.ts`)]);
    } finally {
      if (saved !== undefined) process.env['GOGC'] = saved;
    }
  });
});
