/**
 * The declaration-signature plugin in a real tsserver (the project's TypeScript 5.9), loaded the
 * way `check --watch` loads it (a probe folder, `--globalPlugins`, `--pluginProbeLocations`) and
 * asked over tsserver's own protocol: a comment or a function body edit keeps a file's
 * signature, an exported type's change moves it (as `tsc --watch`'s builder decides), under
 * `noEmit` and without `declaration`; a private member's type (which the `.d.ts` leaves out)
 * moves it too; a file joining the program moves the program hash; a script or `declare
 * global` is global; a `.d.ts`, a JavaScript file, a file outside every project, a class with
 * a `private` member next to a namespace and a program with `removeComments` or
 * `stripInternal` get none.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { signaturePluginProbe } from '../../src/cli/signature-plugin-probe.ts';

const require = createRequire(import.meta.url);
const TSSERVER = join(dirname(require.resolve('typescript/package.json')), 'lib', 'tsserver.js');
const ws = mkdtempSync(join(tmpdir(), 'dsh-signature-plugin-'));
const at = (...parts: string[]): string => join(ws, ...parts);
const probe = signaturePluginProbe();

/** A tsserver with the plugin: one request at a time, answered by `request_seq`. */
function startTsserver() {
  const child = spawn(process.execPath, [TSSERVER, '--globalPlugins', probe.plugin.name, '--pluginProbeLocations', probe.plugin.location, '--disableAutomaticTypingAcquisition'], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  let seq = 0;
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += String(chunk);
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      if (!line.startsWith('{')) continue;
      const message = JSON.parse(line) as Record<string, unknown>;
      if (message.type === 'response') waiting.get(message.request_seq as number)?.(message);
    }
  });
  const request = (command: string, args: unknown): Promise<Record<string, unknown>> =>
    new Promise((resolve) => {
      seq += 1;
      waiting.set(seq, resolve);
      child.stdin.write(`${JSON.stringify({ seq, type: 'request', command, arguments: args })}\n`);
    });
  return { child, request };
}

let server: ReturnType<typeof startTsserver>;

/** Opens the file with `text` (or sets its open text) and asks its signature. */
async function signatureWith(path: string, text: string): Promise<unknown> {
  await server.request('updateOpen', { openFiles: [{ file: path, fileContent: text }] });
  const answer = await server.request('dshDeclarationSignatures', { files: [path] });
  assert.equal(answer.success, true, JSON.stringify(answer));
  return (answer.body as Record<string, unknown>)[path];
}

before(() => {
  mkdirSync(at('app', 'src'), { recursive: true });
  mkdirSync(at('stripped', 'src'), { recursive: true });
  mkdirSync(at('internal', 'src'), { recursive: true });
  mkdirSync(at('app', 'lib'), { recursive: true });
  writeFileSync(at('app', 'lib', 'outside.ts'), 'export const outside = 1;\n');
  writeFileSync(at('internal', 'tsconfig.json'), '{"compilerOptions":{"strict":true,"noEmit":true,"stripInternal":true,"target":"es2022","module":"nodenext"},"include":["src"]}\n');
  writeFileSync(at('internal', 'src', 'i.ts'), 'export const i = 1;\n');
  writeFileSync(at('app', 'src', 'private-ns.ts'), 'export class Foo {\n  private p = 1;\n}\nexport namespace N {\n  export const n = 1;\n}\n');
  writeFileSync(at('app', 'tsconfig.json'), '{"compilerOptions":{"strict":true,"noEmit":true,"allowJs":true,"checkJs":true,"target":"es2022","module":"nodenext"},"include":["src"]}\n');
  writeFileSync(at('app', 'src', 'ambient.d.ts'), 'declare const ambient: number;\n');
  writeFileSync(at('app', 'src', 'legacy.js'), 'export const legacy = 1;\n');
  writeFileSync(at('stripped', 'tsconfig.json'), '{"compilerOptions":{"strict":true,"noEmit":true,"removeComments":true,"target":"es2022","module":"nodenext"},"include":["src"]}\n');
  writeFileSync(at('stripped', 'src', 'a.ts'), 'export const a = 1;\n');
  server = startTsserver();
});
after(() => {
  server?.child.kill();
  probe.dispose();
  rmSync(ws, { recursive: true, force: true });
});

describe('declaration-signature plugin (real tsserver)', () => {
  it("keeps a file's signature across comment and body edits, moves it when an exported type changes", { timeout: 120_000 }, async () => {
    const shared = at('app', 'src', 'shared.ts');
    const base = 'export interface Point { x: number; y: number }\nexport function origin() {\n  return { x: 0, y: 0 };\n}\n';
    const first = (await signatureWith(shared, base)) as { signature: string; global: boolean };
    assert.match(first.signature, /^[0-9a-f]{64}$/);
    assert.equal(first.global, false);
    assert.deepEqual(await signatureWith(shared, `// a comment\n${base}`), first, 'a comment line');
    assert.deepEqual(await signatureWith(shared, base.replace('return { x: 0, y: 0 };', 'const z = 0;\n  return { x: z, y: z };')), first, 'a body, same inferred type');
    const inferred = (await signatureWith(shared, base.replace('return { x: 0, y: 0 };', "return { x: 0, y: 0, label: 'o' };"))) as { signature: string };
    assert.notEqual(inferred.signature, first.signature, 'the inferred return type changed');
    const member = (await signatureWith(shared, base.replace('y: number }', 'y: number; z?: number }'))) as { signature: string };
    assert.notEqual(member.signature, first.signature, 'an interface member added');
    assert.deepEqual(await signatureWith(shared, base), first, 'back to the first text');
    // a file outside `include` joins the program through an import used in a body only
    const joined = (await signatureWith(shared, `import { outside } from '../lib/outside.js';\n${base.replace('return { x: 0, y: 0 };', 'return { x: outside, y: 0 };')}`)) as { signature: string; program: string };
    assert.equal(joined.signature, first.signature, 'the declarations are the same');
    assert.notEqual(joined.program, (first as unknown as { program: string }).program, "the program's files are not");
  });

  it("moves with a private member's type, which the .d.ts leaves out (tsc --watch's builder does not)", { timeout: 120_000 }, async () => {
    const file = at('app', 'src', 'private.ts');
    const base = 'function seed() {\n  return 1;\n}\nexport class Foo {\n  private p = seed();\n  get q(): number {\n    return 2;\n  }\n}\n';
    const first = await signatureWith(file, base);
    assert.deepEqual(await signatureWith(file, base.replace('return 2;', 'const two = 2;\n    return two;')), first, 'a public getter body, typed');
    assert.notDeepEqual(await signatureWith(file, base.replace('return 1;', "return 'one';")), first, "a local function's inferred type, read by the private member");
    assert.notDeepEqual(await signatureWith(file, base.replace('private p = seed();', 'private p = [seed()];')), first, 'the private member itself');
  });

  it('says a script or a declare global is global; a module is not', { timeout: 120_000 }, async () => {
    const file = at('app', 'src', 'scope.ts');
    assert.equal(((await signatureWith(file, 'export const n = 1;\n')) as { global: boolean }).global, false);
    assert.equal(((await signatureWith(file, 'const n = 1;\n')) as { global: boolean }).global, true, 'a script');
    assert.equal(((await signatureWith(file, 'export {};\ndeclare global {\n  var g: number;\n}\n')) as { global: boolean }).global, true);
    assert.equal(((await signatureWith(file, "export {};\ndeclare module 'node:fs' {\n  const extra: number;\n}\n")) as { global: boolean }).global, true, 'a module augmentation');
    // `/* export */` in a comment does not make a module (a text test would say so)
    assert.equal(((await signatureWith(file, '/*\nexport const fake = 1;\n*/\nconst n = 1;\n')) as { global: boolean }).global, true);
  });

  it('vouches for no .d.ts, JavaScript, file outside a project, or program that strips comments', { timeout: 120_000 }, async () => {
    const files = [at('app', 'src', 'ambient.d.ts'), at('app', 'src', 'legacy.js'), at('stripped', 'src', 'a.ts'), at('internal', 'src', 'i.ts'), at('app', 'src', 'private-ns.ts'), at('nowhere', 'b.ts')];
    await server.request('updateOpen', { openFiles: files.slice(0, -1).map((file) => ({ file })) });
    const answer = await server.request('dshDeclarationSignatures', { files });
    assert.equal(answer.success, true, JSON.stringify(answer));
    assert.deepEqual(answer.body, Object.fromEntries(files.map((file) => [file, null])));
  });
});
