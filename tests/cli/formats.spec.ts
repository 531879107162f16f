/**
 * The result model and the three output formats: compiler-style text, JSON, and SARIF 2.1.0
 * (structure checked against what the SARIF spec and code-scanning upload require).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type CheckReport,
  exitCodeOf,
  failedFileReport,
  fileReportFrom,
  normalizeSeverity,
  outcomeOf,
  summarize,
} from '../../src/cli/check-report.ts';
import { jsonReport } from '../../src/cli/format-json.ts';
import { artifactLocation, ruleIdOf, SARIF_SCHEMA, sarifLog } from '../../src/cli/format-sarif.ts';
import { formatDiagnostic, formatFileState, formatSummary, formatText } from '../../src/cli/format-text.ts';

const WS = '/ws';
const range = (l: number, c: number, el: number, ec: number) => ({ start: { line: l, character: c }, end: { line: el, character: ec } });
const TOOL = { name: 'dsh-lsp-actions', version: '9.9.9', informationUri: 'https://example.invalid/dsh-lsp-actions' };

function sampleReport(): CheckReport {
  return {
    workspaceRoot: WS,
    cwd: WS,
    severity: 'warning',
    waitMs: 1000,
    files: [
      fileReportFrom('/ws/src/a.ts', {
        kind: 'diagnostics',
        state: 'fresh',
        truncated: false,
        diagnostics: [
          { severity: 'error', range: range(5, 8, 5, 13), message: "Type 'number' is not assignable to type 'string'.", source: 'typescript', code: 2322 },
          { severity: 'warning', range: range(6, 0, 6, 3), message: 'Unused thing\n  second line', source: 'typescript', code: 6133 },
          { severity: 'hint', range: range(0, 0, 0, 1), message: 'a hint', source: 'typescript', code: 80001 },
        ],
      }, 'warning'),
      fileReportFrom('/ws/src/clean.ts', { state: 'fresh', diagnostics: [], truncated: false }, 'warning'),
      fileReportFrom('/ws/src/slow.py', { state: 'pending', diagnostics: [], truncated: false }, 'warning'),
      failedFileReport('/ws/src/dir with space/b#1.ts', Object.assign(new Error('server crashed'), { code: 'LSP_ACTION_SERVER_CRASHED' })),
    ],
  };
}

describe('check report', () => {
  it('normalises severities (names, LSP numbers; unknown counts as error)', () => {
    assert.equal(normalizeSeverity(1), 'error');
    assert.equal(normalizeSeverity(2), 'warning');
    assert.equal(normalizeSeverity(3), 'info');
    assert.equal(normalizeSeverity('information'), 'info');
    assert.equal(normalizeSeverity(4), 'hint');
    assert.equal(normalizeSeverity('weird'), 'error');
  });

  it('keeps diagnostics at or above the severity, reads freshness, never assumes fresh', () => {
    const r = sampleReport();
    assert.equal(r.files[0]?.diagnostics.length, 2);
    assert.equal(r.files[0]?.state, 'fresh');
    assert.equal(fileReportFrom('/ws/x.ts', { diagnostics: [] }, 'warning').state, 'unknown');
    assert.equal(fileReportFrom('/ws/x.ts', { freshness: 'stale', diagnostics: [] }, 'warning').state, 'stale');
    assert.equal(fileReportFrom('/ws/x.ts', null, 'warning').diagnostics.length, 0);
  });

  it('a server that failed makes the file failed, keeping the other servers\' diagnostics', () => {
    const file = fileReportFrom('/ws/x.py', {
      state: 'fresh',
      diagnostics: [{ severity: 'error', range: range(0, 0, 0, 1), message: 'm', source: 'ruff' }],
      servers: [
        { serverId: 'ruff', mode: 'pull', state: 'fresh' },
        { serverId: 'pyright', mode: 'push', state: 'pending', error: { code: 'LSP_ACTION_SERVER_CRASHED', message: 'exited with code 1' } },
      ],
    }, 'warning');
    assert.equal(file.state, 'failed');
    assert.deepEqual(file.error, { code: 'LSP_ACTION_SERVER_CRASHED', message: 'pyright: exited with code 1' });
    assert.equal(file.diagnostics.length, 1);
    assert.equal(file.servers?.length, 2);
  });

  it('summarises, and an incomplete run never passes', () => {
    const s = summarize(sampleReport());
    assert.deepEqual(
      { files: s.files, errors: s.errors, warnings: s.warnings, filesWithProblems: s.filesWithProblems },
      { files: 4, errors: 1, warnings: 1, filesWithProblems: 1 },
    );
    assert.deepEqual(s.notFresh, { pending: 1, stale: 0, failed: 1, unknown: 0, total: 2 });
    assert.equal(outcomeOf(s), 'errors');
    const incomplete = { ...s, errors: 0 };
    assert.equal(outcomeOf(incomplete), 'incomplete');
    assert.equal(exitCodeOf('incomplete'), 1);
    assert.equal(outcomeOf({ ...s, errors: 0, notFresh: { pending: 0, stale: 0, failed: 0, unknown: 0, total: 0 } }), 'clean');
    assert.equal(exitCodeOf('clean'), 0);
  });
});

describe('text format', () => {
  it('prints compiler-style lines, one-based, relative paths, with source and code', () => {
    const text = formatText(sampleReport(), summarize(sampleReport()));
    const lines = text.trimEnd().split('\n');
    assert.deepEqual(lines, [
      "src/a.ts:6:9 error Type 'number' is not assignable to type 'string'. [typescript 2322]",
      'src/a.ts:7:1 warning Unused thing [typescript 6133]',
      '    second line',
      'src/slow.py: pending: no fresh diagnostics within 1000 ms (server still starting or indexing)',
      'src/dir with space/b#1.ts: failed: LSP_ACTION_SERVER_CRASHED: server crashed',
      '1 error, 1 warning in 1 file (4 files checked)',
      'could not get fresh diagnostics for 2 files (1 pending, 1 failed); the result is incomplete',
    ]);
  });

  it('formats a diagnostic without source or code, and pluralises the summary', () => {
    assert.equal(formatDiagnostic({ severity: 'info', range: range(0, 0, 0, 0), message: 'm' }, 'f.ts'), 'f.ts:1:1 info m');
    const s = summarize({ ...sampleReport(), files: [] });
    assert.equal(formatSummary(s, 'warning'), '0 errors, 0 warnings in 0 files (0 files checked)');
    assert.equal(formatSummary(s, 'hint'), '0 errors, 0 warnings, 0 infos, 0 hints in 0 files (0 files checked)');
  });
});

describe('stale file lines', () => {
  it("say the run's own reason when it has one (a stale build output read), the generic line otherwise", () => {
    const base = { path: '/ws/app/src/main.ts', diagnostics: [], truncated: false };
    assert.equal(formatFileState({ ...base, state: 'stale' }, 'app/src/main.ts', 1000), 'app/src/main.ts: stale: the diagnostics shown are for an older version of the file');
    assert.equal(
      formatFileState({ ...base, state: 'stale', error: { code: 'STALE_BUILD_OUTPUT', message: 'judged against core/out/index.d.ts, older than its source' } }, 'app/src/main.ts', 1000),
      'app/src/main.ts: stale: judged against core/out/index.d.ts, older than its source',
    );
  });
});

describe('JSON format', () => {
  it('lists every file with its state and one-based plus zero-based positions', () => {
    const report = sampleReport();
    const doc = JSON.parse(JSON.stringify(jsonReport(report, summarize(report), TOOL))) as Record<string, any>;
    assert.equal(doc.formatVersion, 1);
    assert.equal(doc.outcome, 'errors');
    assert.equal(doc.workspaceRoot, WS);
    assert.equal(doc.files.length, 4);
    assert.deepEqual(doc.files.map((f: { state: string }) => f.state), ['fresh', 'fresh', 'pending', 'failed']);
    const d = doc.files[0].diagnostics[0];
    assert.deepEqual(
      { line: d.line, column: d.column, endLine: d.endLine, endColumn: d.endColumn, code: d.code, source: d.source },
      { line: 6, column: 9, endLine: 6, endColumn: 14, code: 2322, source: 'typescript' },
    );
    assert.deepEqual(d.range, range(5, 8, 5, 13));
    assert.deepEqual(doc.files[3].error, { code: 'LSP_ACTION_SERVER_CRASHED', message: 'server crashed' });
    assert.equal(doc.summary.notFresh.total, 2);
  });
});

describe('SARIF format', () => {
  const report = sampleReport();
  const log = JSON.parse(JSON.stringify(sarifLog(report, summarize(report), TOOL))) as Record<string, any>;

  it('is a SARIF 2.1.0 log with one run and a complete driver', () => {
    assert.equal(log.version, '2.1.0');
    assert.equal(log.$schema, SARIF_SCHEMA);
    assert.equal(log.runs.length, 1);
    const driver = log.runs[0].tool.driver;
    assert.equal(driver.name, 'dsh-lsp-actions');
    assert.equal(driver.version, '9.9.9');
    assert.equal(typeof driver.informationUri, 'string');
    assert.deepEqual(driver.rules.map((r: { id: string }) => r.id), ['typescript/2322', 'typescript/6133']);
    for (const rule of driver.rules) {
      assert.equal(typeof rule.shortDescription.text, 'string');
      assert.ok(['error', 'warning', 'note'].includes(rule.defaultConfiguration.level));
    }
    // GitHub code scanning lists fullDescription and help (text + markdown) as required.
    assert.deepEqual(driver.rules[0].shortDescription, { text: 'typescript 2322' });
    assert.equal(
      driver.rules[0].fullDescription.text,
      "typescript 2322: an error reported by the typescript language server, for example: Type 'number' is not assignable to type 'string'.",
    );
    assert.match(driver.rules[1].help.text, /^typescript 6133 is reported by the typescript language server .* First message seen: Unused thing$/);
    assert.equal(
      driver.rules[1].help.markdown,
      "**typescript 6133** is reported by the `typescript` language server through `dsh-lsp-actions check`.\n\nEach result's message describes the problem at its location. First message seen:\n\n> Unused thing",
    );
    assert.equal(log.runs[0].columnKind, 'utf16CodeUnits');
    assert.equal(log.runs[0].originalUriBaseIds['%SRCROOT%'].uri, 'file:///ws/');
  });

  it('has results with ruleId, ruleIndex, level, message and a one-based region', () => {
    const results = log.runs[0].results;
    assert.equal(results.length, 2);
    for (const result of results) {
      assert.equal(typeof result.ruleId, 'string');
      assert.equal(log.runs[0].tool.driver.rules[result.ruleIndex].id, result.ruleId);
      assert.ok(['error', 'warning', 'note', 'none'].includes(result.level));
      assert.equal(typeof result.message.text, 'string');
      assert.equal(result.locations.length, 1);
      const { artifactLocation: loc, region } = result.locations[0].physicalLocation;
      assert.equal(loc.uriBaseId, '%SRCROOT%');
      assert.ok(!loc.uri.startsWith('/') && !loc.uri.includes('\\'));
      for (const key of ['startLine', 'startColumn', 'endLine', 'endColumn']) assert.ok(Number.isInteger(region[key]) && region[key] >= 1);
    }
    assert.deepEqual(results[0].locations[0].physicalLocation.region, { startLine: 6, startColumn: 9, endLine: 6, endColumn: 14 });
    assert.equal(results[0].locations[0].physicalLocation.artifactLocation.uri, 'src/a.ts');
    assert.equal(results[0].level, 'error');
    assert.equal(results[1].level, 'warning');
  });

  it('reports files without a fresh result as notifications of an unsuccessful invocation', () => {
    const invocation = log.runs[0].invocations[0];
    assert.equal(invocation.executionSuccessful, false);
    assert.equal(invocation.toolExecutionNotifications.length, 2);
    const failed = invocation.toolExecutionNotifications[1];
    assert.equal(failed.level, 'error');
    assert.equal(failed.descriptor.id, 'LSP_ACTION_SERVER_CRASHED');
    assert.equal(failed.locations[0].physicalLocation.artifactLocation.uri, 'src/dir%20with%20space/b%231.ts');
  });

  it('rule ids and artifact locations', () => {
    assert.equal(ruleIdOf({ severity: 'error', range: range(0, 0, 0, 0), message: 'm' }), 'lsp');
    assert.equal(ruleIdOf({ severity: 'error', range: range(0, 0, 0, 0), message: 'm', source: 'pyright', code: 'reportX' }), 'pyright/reportX');
    assert.deepEqual(artifactLocation('/elsewhere/x.ts', WS), { uri: 'file:///elsewhere/x.ts' });
  });
});
