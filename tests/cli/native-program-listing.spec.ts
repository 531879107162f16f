/**
 * TypeScript 7 programs from the compiler itself: `tsc --listFilesOnly` output parsed (files,
 * diagnostics with continuation lines, location-less ones), tsc's stop rule, and the structure
 * read from the configs' own references.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { nativeProgramStructure, parseNativeListing, stopsBeforeChecking } from '../../src/cli/native-program-listing.ts';

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A listing with one diagnostic of this code on this file. */
const on = (path: string, code: number) => ({ files: [], diagnostics: [{ path, diagnostic: { severity: 'error' as const, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, message: '', code } }] });

describe('parseNativeListing', () => {
  const out = [
    'src/b.ts(2,7): error TS1109: Expression expected.',
    'tsconfig.json(2,25): error TS5102: Option \'baseUrl\' has been removed. Please remove it from your configuration.',
    '  Use \'"paths": {"*": ["./*"]}\' instead.',
    'error TS5058: The specified path does not exist: \'nowhere\'.',
    '/w/node_modules/@typescript/typescript-linux-x64/lib/lib.es5.d.ts',
    '/w/src/a.ts',
    '/w/types/g.d.ts',
    '',
  ].join('\n');
  const listing = parseNativeListing(out, '/w', '/w/tsconfig.json');

  it('files outside node_modules, diagnostics resolved against the directory, continuations joined', () => {
    assert.deepEqual(listing.files, ['/w/src/a.ts', '/w/types/g.d.ts']);
    assert.deepEqual(
      listing.diagnostics.map((d) => [d.path, d.diagnostic.code, d.diagnostic.range.start.line, d.diagnostic.range.start.character]),
      [
        ['/w/src/b.ts', 1109, 1, 6],
        ['/w/tsconfig.json', 5102, 1, 24],
        ['/w/tsconfig.json', 5058, 0, 0],
      ],
    );
    assert.match(listing.diagnostics[1]?.diagnostic.message ?? '', /removed\. Please remove it from your configuration\.\nUse '"paths"/);
    // labelled as TypeScript 7's own server labels its diagnostics (`"source":"ts"`), so one run names one compiler one way
    assert.deepEqual(new Set(listing.diagnostics.map((d) => d.diagnostic.source)), new Set(['ts']));
  });

  it("tsc's stop rule: a syntax error or an option diagnostic stops it; JSON syntax and unknown options do not", () => {
    assert.equal(stopsBeforeChecking(on('/w/src/b.ts', 1109)), true);
    assert.equal(stopsBeforeChecking(on('/w/tsconfig.json', 5102)), true);
    assert.equal(stopsBeforeChecking(on('/w/tsconfig.json', 1005)), false);
    assert.equal(stopsBeforeChecking(on('/w/tsconfig.json', 5023)), false);
    assert.equal(stopsBeforeChecking({ files: ['/w/a.ts'], diagnostics: [] }), false);
  });
});

describe('nativeProgramStructure', () => {
  it("follows each config's own references (comments and trailing commas allowed); a broken config has none", () => {
    const root = mkdtempSync(join(tmpdir(), 'dsh-native-structure-'));
    roots.push(root);
    const files: Record<string, string> = {
      'tsconfig.json': '{\n  // solution\n  "files": [],\n  "references": [{ "path": "./core" }, { "path": "./app/tsconfig.app.json" },],\n}\n',
      'core/tsconfig.json': '{ "compilerOptions": { "composite": true, "outDir": "out", "rootDir": "src" } }',
      'app/tsconfig.app.json': '{ "references": [{ "path": "../core" }, { "path": "../broken" }] }',
      'broken/tsconfig.json': '{ "references": [',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const programs = nativeProgramStructure([join(root, 'tsconfig.json')]);
    assert.deepEqual(
      programs.map((p) => [p.configPath.slice(root.length + 1), p.references.map((r) => r.slice(root.length + 1))]),
      [
        ['tsconfig.json', ['core/tsconfig.json', 'app/tsconfig.app.json']],
        ['core/tsconfig.json', []],
        ['app/tsconfig.app.json', ['core/tsconfig.json', 'broken/tsconfig.json']],
        ['broken/tsconfig.json', []],
      ],
    );
    assert.deepEqual(programs[1]?.declarationLayout, { outDir: join(root, 'core', 'out'), rootDir: join(root, 'core', 'src') });
  });
});
