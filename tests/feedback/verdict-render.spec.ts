/**
 * The appended verdict text: wording per state (never clean when not fresh), worst first,
 * item and character caps.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WireDiagnostic } from '../../src/actions/action-results.ts';
import type { EditVerdict, FileVerdict } from '../../src/feedback/edit-verdict.ts';
import { renderFailureNote, renderLoadingMark, renderVerdict, verdictItem } from '../../src/feedback/verdict-render.ts';

const ROOT = '/ws';
const LIMITS = { maxItems: 10, maxChars: 2_000 };

function diag(line: number, character: number, message: string, severity: 1 | 2 | 3 | 4 = 1, code: string | number = 2552): WireDiagnostic {
  return { severity, range: { start: { line, character }, end: { line, character: character + 1 } }, message, source: 'typescript', code, serverId: 'typescript' };
}

function file(path: string, over: Partial<FileVerdict> = {}): FileVerdict {
  return { path: `${ROOT}/${path}`, role: 'written', state: 'fresh', compared: true, added: [], resolved: 0, ...over };
}

const verdict = (...files: FileVerdict[]): EditVerdict => ({ root: ROOT, waitMs: 3000, files, pending: 0, pendingOf: [], unknownDependents: [], dependentsChecked: 0 });

test('one new error is one line, as the issue shows it', () => {
  const text = renderVerdict(verdict(file('src/report.ts', { added: [diag(6, 22, "Cannot find name 'pointt'.")] })), LIMITS);
  assert.equal(text, "LSP: 1 new error — src/report.ts:7:23 error Cannot find name 'pointt'. [typescript 2552]");
});

test('nothing new: "no new problems", with what was resolved', () => {
  assert.equal(renderVerdict(verdict(file('a.ts', { resolved: 1 })), LIMITS), 'LSP: no new problems (1 resolved)');
  assert.equal(renderVerdict(verdict(file('a.ts')), LIMITS), 'LSP: no new problems');
});

test('pending and failed checks are said as such, never as clean', () => {
  const text = renderVerdict(verdict(file('a.ts', { state: 'pending', compared: false }), file('b.ts', { state: 'failed', compared: false, error: { code: 'LSP_ACTION_SERVER_GAVE_UP', message: 'gave up' } })), LIMITS);
  assert.equal(
    text,
    'LSP: check of b.ts failed: gave up (LSP_ACTION_SERVER_GAVE_UP); a.ts diagnostics pending (no fresh result within 3000 ms); call lsp_diagnostics to check them',
  );
  assert.ok(!text.includes('no new problems'));
});

test('several problems: a summary, then one line each, errors before warnings, written files before others', () => {
  const text = renderVerdict(
    verdict(
      file('src/a.ts', { added: [diag(3, 0, 'unused', 2, 6133), diag(9, 4, 'bad')], resolved: 2 }),
      file('src/b.ts', { role: 'dependent', added: [diag(0, 9, 'no export', 1, 2305)] }),
    ),
    LIMITS,
  );
  assert.equal(
    text,
    [
      'LSP: 2 new errors, 1 new warning in 2 files (2 resolved)',
      'src/a.ts:10:5 error bad [typescript 2552]',
      'src/b.ts:1:10 error no export [typescript 2305]',
      'src/a.ts:4:1 warning unused [typescript 6133]',
    ].join('\n'),
  );
});

test('a verdict that could not judge every dependent never says "no new problems": it names what is pending', () => {
  const text = renderVerdict({ ...verdict(file('src/is.ts')), pending: 40, pendingOf: [`${ROOT}/src/is.ts`], dependentsChecked: 9 }, LIMITS);
  assert.equal(
    text,
    'LSP: no new problems in the files compared (9 other files checked); dependents of src/is.ts pending (40 files without a fresh result within 3000 ms); call lsp_diagnostics to check them',
  );
  assert.ok(!/no new problems(;| \(|$)/.test(text.replace('no new problems in the files compared', '')));
  const unknown = renderVerdict({ ...verdict(file('a.py')), unknownDependents: [`${ROOT}/a.py`] }, LIMITS);
  assert.equal(unknown, 'LSP: no new problems in the files compared; dependents of a.py not known (their server cannot list them)');
});

test('every dependent judged: "no new problems" says how many were checked; their new problems are listed after the written file\'s', () => {
  assert.equal(renderVerdict({ ...verdict(file('src/geometry.ts')), dependentsChecked: 3 }, LIMITS), 'LSP: no new problems (3 other files checked)');
  const text = renderVerdict(
    { ...verdict(file('src/geometry.ts'), file('src/report.ts', { role: 'dependent', added: [diag(0, 9, "Module has no exported member 'distance'.", 1, 2305)] })), dependentsChecked: 1 },
    LIMITS,
  );
  assert.equal(text, "LSP: 1 new error — src/report.ts:1:10 error Module has no exported member 'distance'. [typescript 2305]");
});

test('a project still loading is said as such, never as pending per file nor clean', () => {
  const text = renderVerdict({ ...verdict(file('a.ts', { state: 'pending', compared: false })), loading: true }, LIMITS);
  assert.match(text, /^LSP: not judged yet: the project is still loading \(no fresh result within 3000 ms\); changes made meanwhile are judged with the first edit after it has loaded; call lsp_diagnostics to check them$/);
});

test('a change while the project still loads, after it was said once: one short pending line, never clean', () => {
  const mark = renderLoadingMark(2_000);
  assert.equal(mark, 'LSP: pending: the project is still loading; this change is judged with the first edit after it has loaded');
  assert.ok(!mark.includes('no new problems'));
});

test('root cause first: a syntax error is listed before the errors it causes, wherever it is', () => {
  const text = renderVerdict(
    verdict(file('src/a.ts', { added: [diag(1, 0, "Cannot find name 'x'.", 1, 2304), diag(8, 0, "')' expected.", 1, 1005), diag(0, 0, 'unused', 2, 6133)] })),
    LIMITS,
  );
  assert.deepEqual(text.split('\n').slice(1), [
    "src/a.ts:9:1 error ')' expected. [typescript 1005]",
    "src/a.ts:2:1 error Cannot find name 'x'. [typescript 2304]",
    'src/a.ts:1:1 warning unused [typescript 6133]',
  ]);
});

test('a dependent without an earlier check that has errors now: never "no new problems", its errors are listed', () => {
  const text = renderVerdict(
    { ...verdict(file('src/isDate.ts'), file('src/timer.ts', { role: 'dependent', compared: false, added: [diag(4, 9, 'no export', 1, 2305)] })), dependentsChecked: 14 },
    LIMITS,
  );
  assert.equal(text, 'LSP: no new problems in the files compared; src/timer.ts has 1 error (no earlier check to compare with)\nsrc/timer.ts:5:10 error no export [typescript 2305]');
});

test('a file without an earlier check lists what it has now, and says it could not compare', () => {
  const text = renderVerdict(verdict(file('src/new.ts', { compared: false, added: [diag(0, 13, "Type 'string' is not assignable to type 'number'.", 1, 2322)] })), LIMITS);
  assert.equal(text, "LSP: src/new.ts has 1 error (no earlier check to compare with) — src/new.ts:1:14 error Type 'string' is not assignable to type 'number'. [typescript 2322]");
  assert.equal(renderVerdict(verdict(file('src/new.ts', { compared: false })), LIMITS), 'LSP: src/new.ts has no problems (no earlier check to compare with)');
});

test('items beyond maxItems are counted, not listed', () => {
  const added = Array.from({ length: 7 }, (_, i) => diag(i, 0, `problem ${i}`));
  const text = renderVerdict(verdict(file('a.ts', { added })), { maxItems: 3, maxChars: 2_000 });
  const lines = text.split('\n');
  assert.equal(lines[0], 'LSP: 7 new errors');
  assert.equal(lines.length, 5);
  assert.equal(lines[4], '… 4 more problems not shown');
});

test('the character cap holds over the complete text, multibyte messages included', () => {
  const added = Array.from({ length: 40 }, (_, i) => diag(i, 0, `問題 ${'😀'.repeat(30)} ${i}`));
  for (const maxChars of [200, 257, 600]) {
    const text = renderVerdict(verdict(file('a.ts', { added })), { maxItems: 40, maxChars });
    assert.ok(text.length <= maxChars, `${text.length} <= ${maxChars}`);
    assert.ok(text.startsWith('LSP: 40 new errors'));
    assert.match(text, /more problems not shown$/);
    assert.ok(!/[\uD800-\uDBFF]$/.test(text), 'no split surrogate pair');
  }
});

test('item lines keep one line per problem and drop empty origin', () => {
  const d: WireDiagnostic = { severity: 2, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: 'two\nlines', serverId: 'x' };
  assert.equal(verdictItem(ROOT, `${ROOT}/x.py`, d), 'x.py:1:1 warning two ⏎ lines');
});

test('the failure note is one line within the cap', () => {
  const note = renderFailureNote('boom\nagain', 200);
  assert.equal(note, 'LSP: check failed (boom ⏎ again); the write itself succeeded');
  assert.ok(renderFailureNote('x'.repeat(500), 200).length <= 200);
});
