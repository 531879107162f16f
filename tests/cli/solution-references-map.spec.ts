/**
 * The projects `tsc -b` builds before each program (decision 0108): its order, whatever order
 * the run lists the programs in, and only composite, emitting projects with files.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildOrder, solutionReferences } from '../../src/cli/solution-references-map.ts';
import type { TsProgram } from '../../src/cli/typescript-programs.ts';

function program(configPath: string, references: string[] = [], { files = 1, reference = true } = {}): TsProgram {
  return {
    configPath,
    files: Array.from({ length: files }, (_, i) => `${configPath}.src${i}.ts`),
    errors: [],
    references,
    ...(reference ? { buildsReference: true as const } : {}),
  };
}

// vscode-languageserver-node's shape: the root orders the packages; protocol/common references nothing.
const solution = [
  program('/r/protocol/common', [], {}),
  program('/r/protocol', ['/r/types', '/r/jsonrpc', '/r/protocol/common'], { files: 0 }),
  program('/r/tsconfig', ['/r/types', '/r/jsonrpc', '/r/protocol'], { files: 0 }),
  program('/r/jsonrpc'),
  program('/r/types'),
];

describe('solution references', () => {
  it("orders as tsc -b from the roots (programs nobody references), not in the run's listing order", () => {
    assert.deepEqual(buildOrder(solution), ['/r/types', '/r/jsonrpc', '/r/protocol/common', '/r/protocol', '/r/tsconfig']);
  });

  it('gives each program the composite projects with files built before it, minus what it reaches already', () => {
    assert.deepEqual(solutionReferences(solution), {
      '/r/jsonrpc': ['/r/types'],
      '/r/protocol/common': ['/r/types', '/r/jsonrpc'],
    });
  });

  it('a project that cannot be referenced (not composite, or noEmit) is never given', () => {
    const programs = [program('/r/app'), program('/r/scripts', [], { reference: false }), program('/r/root', ['/r/scripts', '/r/app'], { files: 0 })];
    assert.deepEqual(solutionReferences(programs), {});
    // Nor is one given to a solution-style config: it has no files to judge.
    const solutions = [program('/r/core'), program('/r/pkg', [], { files: 0 }), program('/r/root', ['/r/core', '/r/pkg'], { files: 0 })];
    assert.deepEqual(solutionReferences(solutions), {});
  });

  it('a reference cycle still orders every program once', () => {
    const programs = [program('/r/a', ['/r/b']), program('/r/b', ['/r/a'])];
    assert.deepEqual(buildOrder(programs).sort(), ['/r/a', '/r/b']);
  });
});
