/**
 * A TypeScript 7 program's listing from its own language server (server-program-listing.ts,
 * decision 0114), against `tsc --listFilesOnly` of the same TypeScript on the same projects: the
 * same files in the same order when the program is clean; nothing (so the compiler's listing runs
 * and reports them) when the config does not parse, names an unknown or removed option, or a
 * source file has a syntax error; nothing for a config whose project the server did not load.
 * And the early server (early-typescript-server.ts): its `loadAsked` waits until the server's
 * first registration is answered, and its lister leaves to `tsc` a program with references,
 * another program than the one it loaded, and an interrupted run's.
 * Real server (typescript@7.0.2 from tests/servers), real harness subprocess service.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { URI } from 'vscode-uri';
import { startEarlyServer } from '../../src/cli/early-typescript-server.ts';
import { takeFileSnapshot } from '../../src/cli/file-snapshot.ts';
import { listNativeProgram } from '../../src/cli/native-program-listing.ts';
import { listProgramFromServer } from '../../src/cli/server-program-listing.ts';
import { resolveConfig, type ServerConfig } from '../../src/config.ts';
import { LanguageClient } from '../../src/lsp/language-client.ts';
import { serverFingerprint, takePrestartedServer } from '../../src/lsp/prestarted-servers.ts';
import { loadUnopened } from '../../src/lsp/unopened-pull.ts';
import { nativeTypeScriptServer } from '../../src/presets/native-typescript.ts';
import { createHarnessServices, type HarnessServices } from '../support/harness-services.ts';
import { TS7_TSC, testServersInstalled } from '../support/servers.ts';

const T = { timeout: 120_000 };
const TSC = { command: TS7_TSC, args: [] };
const entry = (): ServerConfig => resolveConfig({ servers: { typescript: nativeTypeScriptServer(TS7_TSC, [], ['tsconfig.json']) } }).servers['typescript'] as ServerConfig;

let base: string;
let services: HarnessServices;

/** @returns the project's root, with `files` written under it */
function project(name: string, files: Record<string, string>): string {
  const root = join(base, name);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

const SOURCES = {
  'src/a.ts': "import { b } from './b';\nexport const a = b;\n",
  'src/b.ts': 'export const b: number = "not a number";\n',
  // imported from outside the include: in the program, as tsc lists it
  'lib/extra.ts': 'export const extra = 1;\n',
  'src/c.ts': "import { extra } from '../lib/extra';\nexport const c = extra;\n",
};

/** Starts the real server on `root`, loads the project through `seed`, and runs `work` on it. */
async function withLoadedServer<T>(root: string, seed: string, work: (client: LanguageClient) => Promise<T>): Promise<T> {
  const config = entry();
  const client = new LanguageClient({ serverId: 'typescript', root, config, executable: config.command, subprocess: services.subprocess, log: () => undefined });
  try {
    await client.start();
    await loadUnopened(client, join(root, seed), URI.file(join(root, seed)).toString(), 60_000);
    return await work(client);
  } finally {
    await client.stop();
  }
}

const apiDirs = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith('dsh-lsp-api-'));

describe("a TypeScript 7 program's listing from its language server (real)", { skip: !testServersInstalled() && 'run npm run test:servers' }, () => {
  before(async () => {
    base = mkdtempSync(join(tmpdir(), 'server-listing-'));
    services = await createHarnessServices();
  });
  after(async () => {
    await services.dispose();
    rmSync(base, { recursive: true, force: true });
  });

  it("a clean program: the files of tsc --listFilesOnly, in its order; the socket's directory is removed", T, async () => {
    const root = project('clean', { ...SOURCES, 'tsconfig.json': '{"compilerOptions":{"strict":true,"noEmit":true},"include":["src"]}' });
    const config = join(root, 'tsconfig.json');
    const compiler = await listNativeProgram(TSC, config);
    assert.deepEqual(compiler.diagnostics, []);
    assert.ok(compiler.files.includes(join(root, 'lib', 'extra.ts')), 'the listing has the import from outside the include');
    const dirsBefore = apiDirs();
    const logs: string[] = [];
    const listing = await withLoadedServer(root, 'src/a.ts', (client) => listProgramFromServer(client, config, { log: (_level, message) => logs.push(message) }));
    assert.deepEqual(listing, { files: compiler.files, diagnostics: [] });
    assert.match(logs.join('\n'), /listed by the server \(4 files\)/);
    assert.deepEqual(apiDirs(), dirsBefore);
  });

  // what tsc --listFilesOnly does not print (7.0.2: the checker's global diagnostics come only with a check):
  // the server says nothing either, and both give the same files
  for (const [name, files] of [
    ['no default library (noLib: TS2318 when checked)', { ...SOURCES, 'tsconfig.json': '{"compilerOptions":{"noLib":true},"include":["src"]}' }],
    ['a global declaration at odds with the library (TS2428 when checked)', { ...SOURCES, 'src/g.d.ts': 'interface Array {}\n', 'tsconfig.json': '{"include":["src"]}' }],
  ] as const) {
    it(`${name}: the listing's files, as tsc --listFilesOnly, which prints nothing more`, T, async () => {
      const root = project(name.replace(/\W+/g, '-'), files);
      const config = join(root, 'tsconfig.json');
      const compiler = await listNativeProgram(TSC, config);
      assert.deepEqual(compiler.diagnostics, []);
      const listing = await withLoadedServer(root, 'src/a.ts', (client) => listProgramFromServer(client, config, { log: () => undefined }));
      assert.deepEqual(listing, { files: compiler.files, diagnostics: [] });
    });
  }

  for (const [name, files, expectedCode] of [
    ['a syntax error in a source file', { ...SOURCES, 'src/d.ts': 'let x = ;\n', 'tsconfig.json': '{"include":["src"]}' }, 1109],
    ['an option TypeScript 7 removed', { ...SOURCES, 'tsconfig.json': '{"compilerOptions":{"baseUrl":"."},"include":["src"]}' }, 5102],
    ['a config that is not valid JSON', { ...SOURCES, 'tsconfig.json': '{"compilerOptions":{"strict":true,,},"include":["src"]}' }, 1136],
    ['an unknown option', { ...SOURCES, 'tsconfig.json': '{"compilerOptions":{"fooBar":1},"include":["src"]}' }, 5023],
    ['a missing file of `files`', { ...SOURCES, 'tsconfig.json': '{"files":["src/a.ts","src/missing.ts"]}' }, 6053],
    ['a type library that is not there', { ...SOURCES, 'tsconfig.json': '{"compilerOptions":{"types":["nope"]},"include":["src"]}' }, 2688],
  ] as const) {
    it(`${name}: no listing from the server; the compiler's listing has the diagnostic`, T, async () => {
      const root = project(name.replace(/\W+/g, '-'), files);
      const config = join(root, 'tsconfig.json');
      const compiler = await listNativeProgram(TSC, config);
      assert.deepEqual(
        compiler.diagnostics.map(({ diagnostic }) => diagnostic.code),
        [expectedCode],
      );
      const logs: string[] = [];
      const listing = await withLoadedServer(root, 'src/a.ts', (client) => listProgramFromServer(client, config, { log: (_level, message) => logs.push(message) }));
      assert.equal(listing, undefined);
      assert.match(logs.join('\n'), /has early diagnostics; the compiler's listing reports them/);
    });
  }

  it('a config whose project the server did not load: no listing', T, async () => {
    const root = project('two', {
      ...SOURCES,
      'tsconfig.json': '{"include":["src"]}',
      'other/tsconfig.json': '{"include":["."]}',
      'other/o.ts': 'export const o = 1;\n',
    });
    const logs: string[] = [];
    const listing = await withLoadedServer(root, 'src/a.ts', (client) => listProgramFromServer(client, join(root, 'other', 'tsconfig.json'), { log: (_level, message) => logs.push(message) }));
    assert.equal(listing, undefined);
    assert.match(logs.join('\n'), /no project of .*other.tsconfig\.json is loaded/);
  });

  it('the early server: its load is asked once the first registration is answered; a program with references is left to tsc', T, async () => {
    const root = project('early', { ...SOURCES, 'tsconfig.json': '{"include":["src"]}' });
    const config = entry();
    const walkedFiles = Object.keys(SOURCES).map((rel) => join(root, rel));
    const early = await startEarlyServer({
      entry: config,
      anchor: root,
      walked: { files: walkedFiles, snapshot: takeFileSnapshot(walkedFiles) },
      workspace: root,
      rootMarkers: ['tsconfig.json'],
      isTypeScriptFile: (path) => path.endsWith('.ts'),
      waitMs: 60_000,
      // as long as it takes: the registration always comes from TypeScript 7 (the run waits 50 ms at most)
      registrationWaitMs: 60_000,
      log: () => undefined,
    });
    assert.ok(early !== undefined, 'started');
    try {
      const offered = takePrestartedServer('typescript', root, serverFingerprint(config, config.command));
      assert.ok(offered !== undefined, 'offered to the pool');
      await early.loadAsked;
      // TypeScript 7 registers its configuration watch right after `initialized`, and waits for the answer
      assert.ok(offered.client.registry.registrations('workspace/didChangeConfiguration').length > 0, 'the registration was answered before loadAsked');
      const program = { configPath: join(root, 'tsconfig.json'), files: [], errors: [], references: [] };
      const listing = await early.listProgram(program);
      assert.deepEqual(listing?.files, (await listNativeProgram(TSC, program.configPath)).files);
      assert.equal(await early.listProgram({ ...program, references: [join(root, 'lib', 'tsconfig.json')] }), undefined);
      // another program's config: not the project this server loaded
      assert.equal(await early.listProgram({ ...program, configPath: join(root, 'lib', 'tsconfig.json') }), undefined);
      // the run interrupted: no listing
      assert.equal(await early.listProgram(program, AbortSignal.abort()), undefined);
      await offered.client.stop();
    } finally {
      await early.dispose();
    }
  });
});
