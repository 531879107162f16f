/**
 * The plan `check` starts while the composition boots (early-plan.ts): it classifies no file
 * before the boot, is given out once and only for the TypeScript it was made for, and a failed
 * boot ends it quietly (the run reports the boot's failure).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { BootedComposition } from '../../src/cli/boot-composition.ts';
import { startEarlyPlan } from '../../src/cli/early-plan.ts';
import type { TypeScriptChoice } from '../../src/cli/workspace-typescript.ts';

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A tree with TypeScript files and no tsconfig: no program to list, so no compiler is run. */
function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'early-plan-'));
  roots.push(root);
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'notes.txt'), 'not code\n');
  return root;
}

const NATIVE: TypeScriptChoice = { source: 'workspace', kind: 'native', version: '7.0.2', packageDir: '/nowhere', serverPath: '/nowhere/tsc' } as TypeScriptChoice;

function booted(serversFor: (path: string) => string[]): BootedComposition {
  return { lspActions: () => ({ engine: { serversFor } }) } as unknown as BootedComposition;
}

const cmd = { paths: ['.'], includeUnconfigured: false, allPrograms: false };

describe('startEarlyPlan', () => {
  it('waits for the boot before classifying, then classifies with the booted routing', async () => {
    const root = tree();
    let boot!: (b: BootedComposition) => void;
    const booting = new Promise<BootedComposition>((resolve) => (boot = resolve));
    const early = startEarlyPlan({ cmd, cwd: root, workspace: root, choice: NATIVE, signal: undefined }, booting);
    let settled = false;
    const plan = early.take(NATIVE).then((fileSet) => ((settled = true), fileSet));
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(settled, false, 'no plan before the boot');
    const asked: string[] = [];
    boot(booted((path) => (asked.push(path), path.endsWith('.ts') ? ['typescript'] : [])));
    const fileSet = await plan;
    assert.ok(fileSet !== undefined);
    assert.deepEqual(fileSet.files, [join(root, 'notes.txt'), join(root, 'src', 'a.ts')]);
    assert.deepEqual(fileSet.inferred, [join(root, 'src', 'a.ts')]);
    assert.ok(asked.includes(join(root, 'src', 'a.ts')), 'the booted routing decided');
  });

  it('is given once, and only for the TypeScript it was made for', async () => {
    const root = tree();
    const booting = Promise.resolve(booted(() => []));
    const other: TypeScriptChoice = { ...NATIVE, kind: 'tsserver', serverPath: '/else/lib/tsserver.js' };
    const early = startEarlyPlan({ cmd, cwd: root, workspace: root, choice: NATIVE, signal: undefined }, booting);
    assert.equal(await early.take(other), undefined, 'another TypeScript: plan again');
    assert.equal(await early.take(NATIVE), undefined, 'taken already (a --watch re-check plans anew)');
    const again = startEarlyPlan({ cmd, cwd: root, workspace: root, choice: NATIVE, signal: undefined }, booting);
    assert.ok((await again.take(NATIVE)) !== undefined);
    assert.equal(await again.take(NATIVE), undefined);
  });

  it('says it has started before the boot exists: with no program to list, once its walk is done', async () => {
    const root = tree();
    const never = new Promise<BootedComposition>(() => undefined);
    const early = startEarlyPlan({ cmd, cwd: root, workspace: root, choice: NATIVE, signal: undefined }, never);
    const walked = await early.walked(NATIVE);
    assert.deepEqual(walked?.files, [join(root, 'notes.txt'), join(root, 'src', 'a.ts')]);
    // the plan now waits for the boot (to classify the files): it must not hold the boot back
    await early.started;
  });

  it('says it has started once the listing is spawned, while the boot has not begun', async () => {
    const root = tree();
    writeFileSync(join(root, 'tsconfig.json'), '{"include": ["src"]}\n');
    // a "compiler" that answers only when told to: the listing is under way until then
    const gate = join(root, 'go');
    const fake = join(root, 'fake-tsc.sh');
    writeFileSync(fake, `#!/bin/sh\nwhile [ ! -e '${gate}' ]; do sleep 0.02; done\necho '${join(root, 'src', 'a.ts')}'\n`, { mode: 0o755 });
    const choice = { ...NATIVE, serverPath: fake };
    let boot!: (b: BootedComposition) => void;
    const booting = new Promise<BootedComposition>((resolve) => (boot = resolve));
    const early = startEarlyPlan({ cmd, cwd: root, workspace: root, choice, signal: undefined }, booting);
    await early.started;
    let listed = false;
    const plan = early.take(choice).then((fileSet) => ((listed = true), fileSet));
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(listed, false, 'started means the listing runs, not that it ended');
    writeFileSync(gate, '');
    boot(booted((path) => (path.endsWith('.ts') ? ['typescript'] : [])));
    const fileSet = await plan;
    assert.deepEqual(fileSet?.programs.map((p) => p.files), [[join(root, 'src', 'a.ts')]]);
  });

  it('a failed boot ends it with no plan and no unhandled rejection', async () => {
    const root = tree();
    const booting = Promise.reject(new Error('boot failed'));
    booting.catch(() => undefined); // the run awaits it and reports
    const early = startEarlyPlan({ cmd, cwd: root, workspace: root, choice: NATIVE, signal: undefined }, booting);
    assert.equal(await early.take(NATIVE), undefined);
  });
});
