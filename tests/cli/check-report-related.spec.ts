/**
 * Related locations ("'point' is declared here.") in every format of `check`, and SARIF's
 * `partialFingerprints` (stable across a line shift) and `automationDetails`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CheckReport, fileReportFrom, summarize } from '../../src/cli/check-report.ts';
import { jsonReport } from '../../src/cli/format-json.ts';
import { automationId, sarifLog } from '../../src/cli/format-sarif.ts';
import { formatText } from '../../src/cli/format-text.ts';
import { FINGERPRINT_KEY } from '../../src/cli/sarif-fingerprints.ts';

const WS = '/ws';
const TOOL = { name: 'dsh-lsp-actions', version: '9.9.9', informationUri: 'https://example.invalid/x' };
const range = (l: number, c: number, el: number, ec: number) => ({ start: { line: l, character: c }, end: { line: el, character: ec } });

/** A wire diagnostic as `diagnostics.get` / `toWireDiagnostic` gives it, with one related location. */
const WIRE = {
  severity: 1,
  range: range(4, 6, 4, 11),
  message: "Argument of type '{ x: number; }' is not assignable to parameter of type 'Point'.",
  source: 'typescript',
  code: 2345,
  serverId: 'typescript',
  relatedInformation: [{ filePath: '/ws/src/point.ts', range: range(1, 2, 1, 3), message: "'y' is declared here." }],
};

function report(diagnostics: unknown[], path = '/ws/src/app.ts'): CheckReport {
  return {
    workspaceRoot: WS,
    cwd: WS,
    severity: 'warning',
    waitMs: 1000,
    files: [fileReportFrom(path, { state: 'fresh', truncated: false, diagnostics }, 'warning')],
  };
}

describe('related locations', () => {
  it('are kept from the wire result (filePath form and LSP location form)', () => {
    const r = report([WIRE, { ...WIRE, relatedInformation: [{ location: { path: '/ws/b.ts', range: range(0, 0, 0, 1) }, message: 'm' }, { bogus: 1 }] }]);
    assert.deepEqual(r.files[0]?.diagnostics[0]?.related, [{ path: '/ws/src/point.ts', range: range(1, 2, 1, 3), message: "'y' is declared here." }]);
    assert.deepEqual(r.files[0]?.diagnostics[1]?.related, [{ path: '/ws/b.ts', range: range(0, 0, 0, 1), message: 'm' }]);
    assert.equal('related' in (report([{ ...WIRE, relatedInformation: undefined }]).files[0]?.diagnostics[0] ?? {}), false);
  });

  it('text: an indented note line per related location, one-based, relative', () => {
    const r = report([WIRE]);
    const lines = formatText(r, summarize(r)).trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, 2), [
      "src/app.ts:5:7 error Argument of type '{ x: number; }' is not assignable to parameter of type 'Point'. [typescript 2345]",
      "    src/point.ts:2:3 note 'y' is declared here.",
    ]);
  });

  it('JSON: related[] with path, absolutePath, one-based and zero-based positions, message', () => {
    const r = report([WIRE]);
    const doc = JSON.parse(JSON.stringify(jsonReport(r, summarize(r), TOOL))) as Record<string, any>;
    assert.deepEqual(doc.files[0].diagnostics[0].related, [
      { path: 'src/point.ts', absolutePath: '/ws/src/point.ts', line: 2, column: 3, endLine: 2, endColumn: 4, range: range(1, 2, 1, 3), message: "'y' is declared here." },
    ]);
  });

  it('SARIF: relatedLocations with id, artifact location, region and message', () => {
    const r = report([WIRE]);
    const log = JSON.parse(JSON.stringify(sarifLog(r, summarize(r), TOOL, { readText: () => undefined }))) as Record<string, any>;
    assert.deepEqual(log.runs[0].results[0].relatedLocations, [
      {
        id: 0,
        physicalLocation: { artifactLocation: { uri: 'src/point.ts', uriBaseId: '%SRCROOT%' }, region: { startLine: 2, startColumn: 3, endLine: 2, endColumn: 4 } },
        message: { text: "'y' is declared here." },
      },
    ]);
  });
});

const diag = (line: number, column = 6) => ({ severity: 1, range: range(line, column, line, column + 1), message: "Type 'number' is not assignable to type 'string'.", source: 'typescript', code: 2322 });
const fingerprintOf = (r: CheckReport): unknown =>
  (JSON.parse(JSON.stringify(sarifLog(r, summarize(r), TOOL, { readText: () => undefined }))) as any).runs[0].results[0].partialFingerprints;

const fingerprints = (text: string, shift: number, extra: unknown[] = []): Array<Record<string, string>> => {
  const r = report([diag(1 + shift), diag(2 + shift), diag(3 + shift), ...extra]);
  const log = JSON.parse(JSON.stringify(sarifLog(r, summarize(r), TOOL, { readText: () => text }))) as Record<string, any>;
  return log.runs[0].results.map((result: { partialFingerprints: Record<string, string> }) => result.partialFingerprints);
};

describe('SARIF fingerprints and automation details', () => {
  const before = ['import { p } from "./p";', 'const a: string = 1;', 'const b: string = 1;', 'const a2: string = 1;'].join('\n');
  // Two lines inserted at the top: every result moves down by two.
  const after = ['// a comment', '// another', before].join('\n');

  it('are stable across a line shift, differ per line text, and count identical lines apart', () => {
    const a = fingerprints(before, 0);
    const b = fingerprints(after, 2);
    assert.deepEqual(b, a);
    const values = a.map((f) => f[FINGERPRINT_KEY] as string);
    assert.equal(new Set(values).size, 3);
    for (const value of values) assert.match(value, /^[0-9a-f]{32}:\d+$/);
    // The same error twice on one line: the same hash, occurrences 1 and 2.
    const twice = fingerprints(before, 0, [diag(1, 10)]);
    const [hash1, n1] = String(twice[0]?.[FINGERPRINT_KEY]).split(':');
    const [hash2, n2] = String(twice[3]?.[FINGERPRINT_KEY]).split(':');
    assert.equal(hash1, hash2);
    assert.deepEqual([n1, n2], ['1', '2']);
  });

  it('change when the line itself changes, or with another rule', () => {
    const a = fingerprints(before, 0);
    const edited = fingerprints(before.replace('const b: string = 1;', 'const b: string = 2;'), 0);
    assert.deepEqual(edited[0], a[0]);
    assert.notDeepEqual(edited[1], a[1]);
  });

  it('an unreadable file falls back to the message, still line-number free', () => {
    const r1 = report([diag(1)]);
    const r2 = report([diag(7)]);
    assert.deepEqual(fingerprintOf(r1), fingerprintOf(r2));
  });

  it('automationDetails.id: the default category and --sarif-category', () => {
    const r = report([]);
    const log = JSON.parse(JSON.stringify(sarifLog(r, summarize(r), TOOL, { category: 'frontend' }))) as Record<string, any>;
    assert.equal(log.runs[0].automationDetails.id, 'dsh-lsp-actions/check/frontend/');
    assert.equal(automationId(undefined), 'dsh-lsp-actions/check/');
    assert.equal(automationId('/web/app/'), 'dsh-lsp-actions/check/web/app/');
  });
});
