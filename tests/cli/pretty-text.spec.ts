/**
 * Pretty text of `check`: when colour is on (flags, FORCE_COLOR, NO_COLOR, terminal), the
 * source excerpt with its squiggle under each diagnostic and its related locations, and that
 * plain output stays plain.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CheckReport, fileReportFrom, summarize } from '../../src/cli/check-report.ts';
import { colorEnabled, excerpt, formatPretty } from '../../src/cli/pretty-text.ts';
import { runInProcess, writeFakeComposition } from './cli-harness.ts';

// eslint-disable-next-line no-control-regex
const strip = (text: string): string => text.replace(/\x1b\[[\d;]*m/g, '');
const range = (l: number, c: number, el: number, ec: number) => ({ start: { line: l, character: c }, end: { line: el, character: ec } });

describe('colour decision', () => {
  it('flags win; FORCE_COLOR over NO_COLOR (as Node); then NO_COLOR; then the terminal', () => {
    const cases: Array<[boolean | undefined, Record<string, string>, boolean, boolean]> = [
      [undefined, {}, true, true],
      [undefined, {}, false, false],
      [true, {}, false, true],
      [false, {}, true, false],
      [false, { FORCE_COLOR: '1' }, true, false],
      [true, { NO_COLOR: '1' }, false, true],
      [undefined, { NO_COLOR: '1' }, true, false],
      [undefined, { NO_COLOR: '' }, true, true],
      [undefined, { FORCE_COLOR: '1' }, false, true],
      [undefined, { FORCE_COLOR: '' }, false, true],
      [undefined, { FORCE_COLOR: '0' }, true, false],
      [undefined, { FORCE_COLOR: 'false' }, true, false],
      [undefined, { FORCE_COLOR: '3', NO_COLOR: '1' }, false, true],
    ];
    for (const [flag, env, tty, expected] of cases) assert.equal(colorEnabled(flag, env, tty), expected, JSON.stringify({ flag, env, tty }));
  });
});

describe('pretty text', () => {
  const files: Record<string, string> = {
    '/ws/src/app.ts': 'import type { Point } from "./point.js";\nfunction draw(p: Point): void {}\ndraw({ x: 1 });\n\tconst s: string = 1 +\n  2 +\n  3;\n',
    '/ws/src/point.ts': 'export interface Point {\n  x: number;\n  y: number;\n}\n',
  };
  const read = (path: string): string | undefined => files[path];
  const report: CheckReport = {
    workspaceRoot: '/ws',
    cwd: '/ws',
    severity: 'warning',
    waitMs: 1000,
    files: [
      fileReportFrom(
        '/ws/src/app.ts',
        {
          state: 'fresh',
          truncated: false,
          diagnostics: [
            {
              severity: 1,
              range: range(2, 5, 2, 13),
              message: "Argument of type '{ x: number; }' is not assignable to parameter of type 'Point'.",
              source: 'typescript',
              code: 2345,
              relatedInformation: [{ filePath: '/ws/src/point.ts', range: range(2, 2, 2, 3), message: "'y' is declared here." }],
            },
            { severity: 2, range: range(3, 7, 3, 8), message: 'tabbed', source: 'typescript', code: 1 },
          ],
        },
        'warning',
      ),
    ],
  };

  it('the source line with a squiggle under the span, related locations with theirs, in colour', () => {
    const text = formatPretty(report, summarize(report), read);
    assert.ok(text.startsWith('\x1b[36msrc/app.ts\x1b[0m:\x1b[33m3\x1b[0m:\x1b[33m6\x1b[0m \x1b[1;31merror\x1b[0m'), text);
    assert.deepEqual(strip(text).split('\n'), [
      "src/app.ts:3:6 error Argument of type '{ x: number; }' is not assignable to parameter of type 'Point'. [typescript 2345]",
      '',
      '3 draw({ x: 1 });',
      '       ~~~~~~~~',
      "    src/point.ts:3:3 note 'y' is declared here.",
      '    3   y: number;',
      '        ~',
      '',
      'src/app.ts:4:8 warning tabbed [typescript 1]',
      '',
      '4 \tconst s: string = 1 +',
      '  \t      ~',
      '',
      '1 error, 1 warning in 1 file (1 file checked)',
      '',
    ]);
  });

  it('multi-line spans: every line squiggled from its first non-blank, long ones cut with …', () => {
    const source = 'a = (\n  b +\n  c +\n  d +\n  e);\n';
    assert.deepEqual(excerpt(source, range(0, 4, 2, 5)).map(strip), ['1 a = (', '      ~', '2   b +', '    ~~~', '3   c +', '    ~~~']);
    assert.deepEqual(excerpt(source, range(0, 0, 5, 0)).map(strip).at(-1), '…');
    // A span ending at column 0 of the next line shows the one line; an empty span one `~`.
    assert.deepEqual(excerpt(source, range(1, 2, 2, 0)).map(strip), ['2   b +', '    ~~~']);
    assert.deepEqual(excerpt(source, range(1, 2, 1, 2)).map(strip), ['2   b +', '    ~']);
    assert.deepEqual(excerpt(source, range(99, 0, 99, 1)), []);
  });
});

describe('check: pretty only when asked or on a terminal', () => {
  const ws = mkdtempSync(join(tmpdir(), 'dsh-lsp-cli-pretty-'));
  const config = join(ws, 'cordis.yml');
  before(() => {
    mkdirSync(join(ws, 'bad'));
    writeFileSync(join(ws, 'bad', 'error.ts'), 'one\ntwo\n    const x = y;\n');
    writeFakeComposition(config);
  });
  after(() => rmSync(ws, { recursive: true, force: true }));
  const check = (env: Record<string, string>, ...args: string[]) => runInProcess(['check', 'bad', '--config', config, '--log-level', 'error', ...args], ws, env);

  it('plain by default off a terminal, and with NO_COLOR or --no-pretty', async () => {
    for (const run of [await check({}), await check({ NO_COLOR: '1' }), await check({ FORCE_COLOR: '1' }, '--no-pretty')]) {
      assert.equal(run.stdout, "bad/error.ts:3:5 error Cannot find name 'x'. [fake 2304]\n1 error, 0 warnings in 1 file (1 file checked)\n");
    }
  });

  it('pretty with --pretty or FORCE_COLOR: colour and the excerpt', async () => {
    for (const run of [await check({}, '--pretty'), await check({ FORCE_COLOR: '1' })]) {
      assert.ok(run.stdout.includes('\x1b[1;31merror\x1b[0m'), run.stdout);
      assert.ok(strip(run.stdout).includes('\n3     const x = y;\n      ~~~~~~\n'), strip(run.stdout));
    }
  });
});
