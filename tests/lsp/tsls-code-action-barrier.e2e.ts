/**
 * Quick-fix listing with typescript-language-server (real): after an edit the tsserver passthrough
 * answers diagnostics at once and tsls publishes its own list for the new version later (it also
 * re-publishes after code action requests). Before asking for code actions the engine waits until
 * the server's own view of the document has settled (tsls uses ITS pushed list for pending
 * documents); a publish newer than the last ordering barrier can only be confirmed by a new barrier (`textDocument/foldingRange`, answered on tsserver's analysis thread). Without
 * sending one, the wait ran into its deadline: ~2.4 s on every listing and every `quickfix.apply`
 * (issue 20, point 5). Asserted on the requests sent, not on time.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LanguageClient } from '../../src/lsp/language-client.ts';
import { TSLS_ENTRY } from '../support/servers.ts';
import { makeConfig, makeWorkspace, startEngine, type EngineFixture, type Workspace } from './engine-fixture.ts';

const T = { timeout: 180_000 };
let ws: Workspace;
let f: EngineFixture;
/** Every request method the engine sent, and every publish it received, in order. */
const trail: string[] = [];
const original = LanguageClient.prototype.request;
const publishes = Object.getOwnPropertyDescriptor(LanguageClient.prototype, 'onPublishDiagnostics');

before(async () => {
  LanguageClient.prototype.request = function <R>(this: LanguageClient, method: string, params: unknown, signal?: AbortSignal): Promise<R> {
    trail.push(`request ${method}`);
    return original.call(this, method, params, signal) as Promise<R>;
  };
  Object.defineProperty(LanguageClient.prototype, 'onPublishDiagnostics', {
    configurable: true,
    get(this: LanguageClient) {
      const event = publishes?.get?.call(this) as (listener: (p: unknown) => void) => unknown;
      return (listener: (p: unknown) => void) =>
        event((p) => {
          trail.push('publish');
          listener(p);
        });
    },
  });
  ws = await makeWorkspace('tsls-barrier-');
  await ws.write('tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true}}');
  await ws.write('lib.ts', 'export function spread(a: number, b: number): number {\n  return b - a;\n}\n');
  f = await startEngine(makeConfig({ tsls: TSLS_ENTRY }));
});
after(async () => {
  LanguageClient.prototype.request = original;
  if (publishes !== undefined) Object.defineProperty(LanguageClient.prototype, 'onPublishDiagnostics', publishes);
  await f.close();
  await ws.remove();
});

describe('code actions after tsls published for a new version (real typescript-language-server)', () => {
  it('listing right after an edit confirms tsls’s newer publish with an ordering barrier instead of waiting out the deadline', T, async () => {
    const path = await ws.write('use.ts', 'export const d = spread(1, 4);\n');
    const target = { root: ws.root, path };
    const diagnostics = await f.engine.diagnostics(target);
    assert.equal(diagnostics.state, 'fresh');
    const range = diagnostics.diagnostics[0]?.range;
    assert.ok(range, 'the missing name is reported');
    // The unsaved text changes (a new version): the tsserver passthrough answers its diagnostics
    // at once, and tsls publishes its own list for that version only afterwards.
    const edited = 'export const d = spread(1, 4);\nexport const e = 2;\n';
    const next = await f.engine.diagnostics({ ...target, text: edited });
    assert.equal(next.state, 'fresh');
    const before2 = trail.length;
    const second = await f.engine.codeActions({ ...target, text: edited }, range);
    assert.ok(second.some((a) => /^Add import from "\.\/lib(\.js)?"$/.test(a.title)));
    const during = trail.slice(before2);
    const barrier = during.indexOf('request textDocument/foldingRange');
    const actions = during.indexOf('request textDocument/codeAction');
    assert.ok(actions >= 0, during.join(', '));
    assert.ok(barrier >= 0 && barrier < actions, `an ordering barrier before the code action request: ${during.join(', ')}`);
  });
});
