/**
 * Which programs a `check --watch` run lists on its servers (watch-program-run.ts): every one the
 * first time, then only those a re-check can change — the others keep their listing, so a
 * re-check does not restart the stopped server of every program in turn.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { programsToList } from '../../src/cli/watch-program-run.ts';
import type { TsProgram } from '../../src/cli/typescript-programs.ts';

const program = (name: string, files: string[], extra: Partial<TsProgram> = {}): TsProgram => ({ configPath: `/w/${name}/tsconfig.json`, files, errors: [], references: [], ...extra });
const core = program('core', ['/w/core/a.ts', '/w/core/b.ts']);
const app = program('app', ['/w/app/main.ts']);
const docs = program('docs', ['/w/docs/x.ts']);
const native = program('ts7', ['/w/ts7/n.ts'], { complete: true });
const programs = [core, app, docs, native];
const planned = new Set(['/w/core/a.ts', '/w/core/b.ts', '/w/app/main.ts', '/w/ts7/n.ts']);
const names = (list: TsProgram[]): string[] => list.map((p) => p.configPath.split('/')[2] as string);

describe('programsToList', () => {
  it('a whole run lists every program with a planned file, except those TypeScript 7 listed whole', () => {
    assert.deepEqual(names(programsToList(programs, planned, [...planned], undefined)), ['core', 'app']);
  });

  it('a re-check lists the programs with a file asked, or whose previous listing has one, or that had none', () => {
    const previous = new Map([
      [core.configPath, ['/w/core/a.ts', '/w/core/b.ts']],
      [app.configPath, ['/w/app/main.ts', '/w/core/b.ts']],
    ]);
    assert.deepEqual(names(programsToList(programs, planned, ['/w/core/a.ts'], previous)), ['core']);
    assert.deepEqual(names(programsToList(programs, planned, ['/w/core/b.ts'], previous)), ['core', 'app'], "app's listing has core/b.ts");
    assert.deepEqual(names(programsToList(programs, planned, ['/w/app/main.ts'], previous)), ['app']);
    previous.delete(app.configPath);
    assert.deepEqual(names(programsToList(programs, planned, ['/w/core/a.ts'], previous)), ['core', 'app'], 'app was not listed last time');
  });
});
