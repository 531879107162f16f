/**
 * The compiler's early verdicts (src/cli/compiler-reports.ts): TypeScript 7's, from its listing,
 * are `fresh` only for files whose version now equals the one taken before the listing ran;
 * TypeScript ≤ 6's and non-TypeScript configs' are reported as before.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { FileSet } from '../../src/cli/check-file-set.ts';
import { compilerReports } from '../../src/cli/compiler-reports.ts';
import { takeFileSnapshot } from '../../src/cli/file-snapshot.ts';

const dir = mkdtempSync(join(tmpdir(), 'dsh-compiler-reports-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string): string => join(dir, name);
const error = { severity: 'error' as const, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: 'e', source: 'ts', code: 1005 };

function setUp(): { fileSet: FileSet; judged: string[] } {
  writeFileSync(at('tsconfig.json'), '{"compilerOptions":{"baseUrl":"."}}\n');
  writeFileSync(at('broken.ts'), 'export const = 1;\n');
  writeFileSync(at('clean.ts'), 'export const a = 1;\n');
  writeFileSync(at('pyproject.toml'), '[tool.pyright\n');
  const configErrors = new Map([
    [at('tsconfig.json'), [error]],
    [at('broken.ts'), [error]],
    [at('pyproject.toml'), [error]],
  ]);
  return { fileSet: { configErrors } as unknown as FileSet, judged: [at('broken.ts'), at('clean.ts'), at('outside.ts')] };
}

const states = (reports: ReturnType<typeof compilerReports>): Record<string, string> => Object.fromEntries(reports.map((r) => [r.path.slice(dir.length + 1), r.state]));

describe('compilerReports', () => {
  it("TypeScript 7: fresh when unchanged since before the listing; a file written since, or with no version taken, is pending", () => {
    const { fileSet, judged } = setUp();
    writeFileSync(at('outside.ts'), 'export const o = 1;\n');
    const snapshot = takeFileSnapshot([at('tsconfig.json'), at('broken.ts'), at('clean.ts')]);
    writeFileSync(at('clean.ts'), 'export const a = ;\n'); // someone saves it while the run goes on
    assert.deepEqual(states(compilerReports(fileSet, new Set(), judged, { snapshot })), {
      'tsconfig.json': 'fresh',
      'broken.ts': 'fresh',
      'pyproject.toml': 'fresh',
      'clean.ts': 'pending',
      'outside.ts': 'pending',
    });
  });

  it('TypeScript 7 with no versions taken before its listing: none of its verdicts is fresh', () => {
    const { fileSet, judged } = setUp();
    const reports = states(compilerReports(fileSet, new Set(), judged, { snapshot: undefined }));
    assert.equal(reports['broken.ts'], 'pending');
    assert.equal(reports['tsconfig.json'], 'pending');
    assert.equal(reports['pyproject.toml'], 'fresh', "pyright's config is not the listing's");
  });

  it('TypeScript ≤ 6 (no listing): as before; a file a server answered for is left to its answer', () => {
    const { fileSet, judged } = setUp();
    const reports = compilerReports(fileSet, new Set([at('broken.ts')]), judged);
    assert.deepEqual(states(reports), { 'tsconfig.json': 'fresh', 'pyproject.toml': 'fresh', 'clean.ts': 'fresh', 'outside.ts': 'fresh' });
    assert.equal(reports.find((r) => r.path === at('tsconfig.json'))?.config, true);
  });
});
