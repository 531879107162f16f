/**
 * How `check` routes its files to server processes before the first pull (check-by-program.ts):
 * a server's root is looked up once per directory, not once per file (rxjs: 501 files in 32
 * directories; per file it took ~12 ms before the first pull), and `primeServerRoots` looks them
 * up while TypeScript 7's project still loads. A scripted engine counts the lookups.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkProgramByProgram, primeServerRoots } from '../../src/cli/check-by-program.ts';
import type { FileSet } from '../../src/cli/check-file-set.ts';
import type { FileReport } from '../../src/cli/check-report.ts';
import type { CliIo } from '../../src/cli/cli-io.ts';
import type { LspActionsApi } from '../../src/lsp-actions-api.ts';

const WS = '/ws';

/** @returns an engine routing `.ts` to `typescript` and `eslint`, `.py` to `pyright`, rooted at the file's top folder; and its lookups */
function scriptedEngine(failFor?: string): { engine: LspActionsApi['engine']; lookups: string[] } {
  const lookups: string[] = [];
  const engine = {
    serversFor: (file: string) => (file.endsWith('.ts') ? ['typescript', 'eslint'] : file.endsWith('.py') ? ['pyright'] : []),
    serverRootOf: async (serverId: string, file: string) => {
      lookups.push(`${serverId} ${file}`);
      if (file === failFor) throw new Error('unreadable');
      return `${WS}/${file.slice(WS.length + 1).split('/')[0] ?? ''}`;
    },
  };
  return { engine: engine as unknown as LspActionsApi['engine'], lookups };
}

const FILES = [`${WS}/a/x.ts`, `${WS}/a/y.ts`, `${WS}/a/deep/z.ts`, `${WS}/b/w.ts`, `${WS}/b/p.py`, `${WS}/b/q.py`, `${WS}/README.md`];

describe("check's routing of files to server processes", () => {
  it('primeServerRoots asks each server once per directory, and a failed lookup does not fail it', async () => {
    const { engine, lookups } = scriptedEngine(`${WS}/b/w.ts`);
    await primeServerRoots(engine, FILES, WS);
    assert.deepEqual(lookups.sort(), [
      `eslint ${WS}/a/deep/z.ts`,
      `eslint ${WS}/a/x.ts`,
      `eslint ${WS}/b/w.ts`,
      `pyright ${WS}/b/p.py`,
      `typescript ${WS}/a/deep/z.ts`,
      `typescript ${WS}/a/x.ts`,
      `typescript ${WS}/b/w.ts`,
    ]);
  });

  it('the schedule looks each root up once per directory and groups the files by the processes that answer them', async () => {
    const { engine, lookups } = scriptedEngine();
    const checked: string[][] = [];
    const io = { stderr: { write: () => true }, cwd: WS } as unknown as CliIo;
    const fileSet = { programs: [], unconfigured: [], whole: new Set<string>() } as unknown as FileSet;
    const handled = FILES.filter((file) => engine.serversFor(file, WS).length > 0);
    const reports = await checkProgramByProgram({ engine } as unknown as LspActionsApi, io, { workspace: WS, signal: undefined, watch: true, progress: false }, {
      fileSet,
      handled,
      listings: new Map(),
      isTypeScriptFile: (file) => file.endsWith('.ts'),
      listPrograms: false,
      prestarted: undefined,
      check: async (files) => {
        checked.push(files);
        return files.map((path) => ({ path }) as unknown as FileReport);
      },
    });
    assert.equal(lookups.length, 7, `two servers × three .ts directories, one × one .py directory: ${lookups.join(', ')}`);
    assert.deepEqual(checked, [[`${WS}/a/x.ts`, `${WS}/a/y.ts`, `${WS}/a/deep/z.ts`], [`${WS}/b/w.ts`], [`${WS}/b/p.py`, `${WS}/b/q.py`]]);
    assert.equal(reports.length, handled.length);
  });
});
