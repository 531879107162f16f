/**
 * tsc's rule for syntax errors (a program with any reports only those), applied to check's
 * report, with the real parser of the embedded TypeScript deciding what is syntactic.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FileReport, ReportDiagnostic } from '../../src/cli/check-report.ts';
import { applySyntaxFirst } from '../../src/cli/syntax-first.ts';
import { loadTypeScript, syntaxErrors, type TsProgram } from '../../src/cli/typescript-programs.ts';
import { embeddedTypeScript } from '../../src/cli/workspace-typescript.ts';

const ts = loadTypeScript(embeddedTypeScript().packageDir);

const dir = mkdtempSync(join(tmpdir(), 'dsh-syntax-first-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const diag = (line: number, character: number, code: number): ReportDiagnostic => ({
  severity: 'error',
  range: { start: { line, character }, end: { line, character } },
  message: `TS${code}`,
  source: 'typescript',
  code,
});
const report = (path: string, diagnostics: ReportDiagnostic[]): FileReport => ({ path, state: 'fresh', diagnostics, truncated: false });
const program = (configPath: string, files: string[]): TsProgram => ({ configPath, files, errors: [], references: [] });
const parse = async (files: string[]) => syntaxErrors(ts, files, (path) => readFileSync(path, 'utf8'));

describe('applySyntaxFirst', () => {
  const broken = file('broken.ts', 'export const x: number = "s";\nlet = ;\n');
  const other = file('other.ts', 'export const y: number = "t";\n');
  const shared = file('shared.ts', 'export const z: number = "u";\n');
  const ambient = file('ambient.d.ts', 'declare const broken: number = 1;\n');
  const reports = [
    report(broken, [diag(0, 13, 2322), diag(1, 6, 1109)]),
    report(other, [diag(0, 13, 2322)]),
    report(shared, [diag(0, 13, 2322)]),
  ];

  it('a program with a syntax error keeps only the syntax errors, in every file of it', async () => {
    const out = await applySyntaxFirst(reports, [program('/p/tsconfig.json', [broken, other])], parse);
    assert.deepEqual(out.map((r) => r.diagnostics.map((d) => d.code)), [[1109], [], [2322]]);
  });

  it('a file also in a program without syntax errors keeps everything', async () => {
    const out = await applySyntaxFirst(reports, [program('/p/tsconfig.json', [broken, other, shared]), program('/q/tsconfig.json', [shared, other])], parse);
    assert.deepEqual(out.map((r) => r.diagnostics.map((d) => d.code)), [[1109], [2322], [2322]]);
  });

  it("a grammar error the checker reports (TS1039) is not a syntax error: nothing is dropped", async () => {
    const grammar = [report(ambient, [diag(0, 31, 1039)]), report(other, [diag(0, 13, 2322)])];
    const out = await applySyntaxFirst(grammar, [program('/p/tsconfig.json', [ambient, other])], parse);
    assert.deepEqual(out.map((r) => r.diagnostics.map((d) => d.code)), [[1039], [2322]]);
  });

  it('a clean run asks the parser nothing', async () => {
    let asked = 0;
    await applySyntaxFirst([report(other, [diag(0, 13, 2322)])], [program('/p/tsconfig.json', [other])], async (files) => {
      asked += files.length;
      return parse(files);
    });
    assert.equal(asked, 0);
  });
});
