/**
 * The Go runtime settings of `check`'s processes: they collect less often, and the listing runs
 * on half the cores, unless the user chose; and `check` really hands them to the processes it
 * starts (the listing's environment is read back from a fake compiler that prints it).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BATCH_GOGC, batchGoGc, listingGoProcs } from '../../src/cli/go-runtime-env.ts';
import { listNativeProgram } from '../../src/cli/native-program-listing.ts';

const root = mkdtempSync(join(tmpdir(), 'go-runtime-env-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('listingGoProcs', () => {
  it('gives the listing half the cores, at least one, unless the user chose', () => {
    assert.deepEqual(listingGoProcs({}, 2), { GOMAXPROCS: '1' });
    assert.deepEqual(listingGoProcs({}, 1), { GOMAXPROCS: '1' });
    assert.deepEqual(listingGoProcs({}, 8), { GOMAXPROCS: '4' });
    assert.deepEqual(listingGoProcs({ GOMAXPROCS: '6' }, 8), {});
  });
});

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
    writeFileSync(fake, `#!/bin/sh\necho "${root}/gogc-\${GOGC:-unset}-procs-\${GOMAXPROCS:-unset}.ts"\n`, { mode: 0o755 });
    const saved = { GOGC: process.env['GOGC'], GOMAXPROCS: process.env['GOMAXPROCS'] };
    delete process.env['GOGC'];
    delete process.env['GOMAXPROCS'];
    try {
      const listing = await listNativeProgram({ command: fake, args: [] }, join(root, 'tsconfig.json'));
      assert.deepEqual(listing.files, [join(root, `gogc-${BATCH_GOGC}-procs-${Math.max(1, Math.floor(availableParallelism() / 2))}.ts`)]);
    } finally {
      for (const [key, value] of Object.entries(saved)) if (value !== undefined) process.env[key] = value;
    }
  });
});
