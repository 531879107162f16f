import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asksQuickFixes, quickFixGapNote } from '../../src/actions/quick-fix-gaps.ts';
import type { CodeActionItem, CodeActionServer, EngineDiagnostic, FileDiagnostics, Freshness, Range } from '../../src/lsp/engine-types.ts';

const r = (line: number, from: number, to: number): Range => ({ start: { line, character: from }, end: { line, character: to } });
const TARGET = { root: '/w', path: '/w/a.ts' };
const TS7: CodeActionServer = { serverId: 'typescript', kinds: ['quickfix'], serverInfo: { name: 'typescript-go', version: '7.0.2' } };
const SPELL: EngineDiagnostic = { serverId: 'typescript', range: r(1, 17, 23), severity: 'error', message: "Cannot find name 'countt'.", code: 2552 };
const UNUSED: EngineDiagnostic = { serverId: 'typescript', range: r(0, 6, 11), severity: 'hint', message: "'count' is declared but never read.", code: 6133 };

function engine(servers: CodeActionServer[], diagnostics: EngineDiagnostic[], state: Freshness = 'fresh') {
  const calls: string[] = [];
  return {
    calls,
    async codeActionKinds() {
      calls.push('codeActionKinds');
      return servers;
    },
    async diagnostics(): Promise<FileDiagnostics> {
      calls.push('diagnostics');
      return { path: TARGET.path, version: 1, state, diagnostics, servers: [] };
    },
  };
}

const fix = (title: string, diagnostics?: EngineDiagnostic[], kind = 'quickfix'): CodeActionItem => ({ serverId: 'typescript', title, kind, needsResolve: false, raw: {}, ...(diagnostics ? { diagnostics } : {}) });
const signal = new AbortController().signal;

describe('quick fixes TypeScript 7 lacks', () => {
  it('notes the codes of TS 7 diagnostics in the range that no offered quick fix is for', async () => {
    const e = engine([TS7], [SPELL, UNUSED]);
    const note = await quickFixGapNote(e, TARGET, { start: { line: 0, character: 0 }, end: { line: 1, character: 30 } }, [], undefined, signal);
    assert.match(note ?? '', /^TypeScript 7's language server \(tsc --lsp 7\.0\.2\) offers no quick fix for TS2552, TS6133 here; .*tsserver-based TypeScript \(5\.x and earlier\)/);
    // only the range's diagnostics
    assert.match((await quickFixGapNote(e, TARGET, r(1, 18, 18), [], undefined, signal)) ?? '', /for TS2552 here/);
  });

  it('no note when a quick fix is for the diagnostic (same code and start), or names none', async () => {
    const e = engine([TS7], [SPELL]);
    assert.equal(await quickFixGapNote(e, TARGET, SPELL.range, [fix('Change spelling', [SPELL])], undefined, signal), undefined);
    assert.equal(await quickFixGapNote(e, TARGET, SPELL.range, [fix('Something')], undefined, signal), undefined);
    // a fix for another diagnostic, a refactor, or a disabled fix does not count
    assert.ok(await quickFixGapNote(e, TARGET, SPELL.range, [fix('Remove unused', [UNUSED])], undefined, signal));
    assert.ok(await quickFixGapNote(e, TARGET, SPELL.range, [fix('Extract', undefined, 'refactor.extract')], undefined, signal));
    assert.ok(await quickFixGapNote(e, TARGET, SPELL.range, [{ ...fix('Change spelling', [SPELL]), disabled: 'no' }], undefined, signal));
  });

  it('no note for other servers, for diagnostics not fresh, or when quick fixes were not asked for', async () => {
    const tsls: CodeActionServer = { serverId: 'typescript', kinds: ['quickfix'] };
    const other = engine([tsls], [SPELL]);
    assert.equal(await quickFixGapNote(other, TARGET, SPELL.range, [], undefined, signal), undefined);
    assert.deepEqual(other.calls, ['codeActionKinds'], 'no diagnostics asked when no server is TS 7');
    assert.equal(await quickFixGapNote(engine([TS7], [SPELL], 'pending'), TARGET, SPELL.range, [], undefined, signal), undefined);
    const refactors = engine([TS7], [SPELL]);
    assert.equal(await quickFixGapNote(refactors, TARGET, SPELL.range, [], ['refactor'], signal), undefined);
    assert.deepEqual(refactors.calls, []);
    // a diagnostic of another server routed to the file is not TS 7's to explain
    assert.equal(await quickFixGapNote(engine([TS7], [{ ...SPELL, serverId: 'eslint' }]), TARGET, SPELL.range, [], undefined, signal), undefined);
  });

  it('asksQuickFixes: any kind, quickfix or a sub-kind of it', () => {
    assert.equal(asksQuickFixes(undefined), true);
    assert.equal(asksQuickFixes([]), true);
    assert.equal(asksQuickFixes(['quickfix']), true);
    assert.equal(asksQuickFixes(['quickfix.addImport']), true);
    assert.equal(asksQuickFixes(['refactor', 'source']), false);
  });
});
