/**
 * `dsh-lsp-actions mcp` end to end with the official MCP SDK's client (`Client` +
 * `StdioClientTransport`) spawning the built CLI, on a real TypeScript project (the embedded
 * typescript-language-server) and a real Python one (pinned pyright): the tool list with
 * schemas and annotations, fresh and correct diagnostics, a dependency changed on disk, writes
 * under workspace-write and their refusal under read-only, bad input, concurrent calls, and the
 * end of stdin stopping every process.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { descendants, running, until } from '../cli/serve-process.ts';
import { LSP_DIAGNOSTICS_DESCRIPTION } from '../../src/tools/lsp-diagnostics-tool.ts';
import { LSP_RENAME_DESCRIPTION } from '../../src/tools/lsp-rename-tool.ts';
import { NAVIGATION_TOOL_NAMES } from '../../src/tools/navigation-tools.ts';
import { LSP_TOOL_NAMES } from '../../src/tools/register-lsp-tools.ts';
import { call, connect, fakeServersFile, type McpSession, project, PY_FILES, PYRIGHT_INSTALLED, serversFile, TS_FILES } from './mcp-harness.ts';

const TIMEOUT = 600_000;

describe('mcp under workspace-write: the SDK client', { timeout: TIMEOUT, skip: !PYRIGHT_INSTALLED && 'run npm run test:servers' }, () => {
  let ts: string;
  let py: string;
  let session: McpSession;

  before(async () => {
    ts = project(TS_FILES, 'ts');
    py = project(PY_FILES, 'py');
    session = await connect(['-w', ts, '-w', py, '--sandbox', 'workspace-write', '--servers', serversFile()]);
  });
  after(async () => {
    await session?.transport.close();
  });

  it('lists every agent tool with its registry schema and text, annotations, and no escalation arguments', async () => {
    const { tools } = await session.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of [...LSP_TOOL_NAMES, ...NAVIGATION_TOOL_NAMES, 'lsp_edit_feedback']) assert.ok(byName.has(name), `${name} is listed`);
    assert.equal(tools.length, LSP_TOOL_NAMES.length + NAVIGATION_TOOL_NAMES.length + 1, 'the action tools, the navigation tools and lsp_edit_feedback, nothing else');
    assert.ok(tools.every((tool) => tool.name.startsWith('lsp_')), 'only the plugin tools are served');
    const diagnostics = byName.get('lsp_diagnostics');
    assert.equal(diagnostics?.description, LSP_DIAGNOSTICS_DESCRIPTION);
    assert.deepEqual(Object.keys(diagnostics?.inputSchema.properties ?? {}), ['file_path', 'file_paths', 'changes_only']);
    assert.deepEqual(diagnostics?.annotations, { readOnlyHint: true, openWorldHint: false });
    const rename = byName.get('lsp_rename');
    assert.equal(rename?.description, LSP_RENAME_DESCRIPTION);
    assert.deepEqual(rename?.inputSchema.required?.toSorted(), ['character', 'file_path', 'line', 'new_name']);
    assert.deepEqual(rename?.annotations, { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
    assert.equal(byName.get('lsp_format')?.annotations?.idempotentHint, true);
    for (const read of ['lsp_completion', 'lsp_symbols', 'lsp_signature', 'lsp_inlay_hints', 'lsp_edit_feedback', ...NAVIGATION_TOOL_NAMES]) {
      assert.equal(byName.get(read)?.annotations?.readOnlyHint, true, `${read} is a read`);
    }
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object');
      assert.ok(!('sandbox_permissions' in (tool.inputSchema.properties ?? {})), `${tool.name} offers no escalation`);
    }
  });

  it('navigation tools answer agentless, in the folder of the path: definition in TypeScript, hover in Python', async () => {
    // use.ts line 3: `export const total: number = add(1, 2);` — `add` starts at character 30
    const definition = await call(session, 'lsp_definition', { file_path: 'src/use.ts', line: 3, character: 31 });
    assert.equal(definition.isError, false, definition.text);
    assert.match(definition.text, /^src\/dep\.ts\n\s+1:17: /m, definition.text);
    assert.match(definition.text, /export function add\(a: number, b: number\): number/, definition.text);
    // main.py line 3: `count: int = total([1, 2])` — `total` starts at character 14; an absolute path in the second folder
    const hover = await call(session, 'lsp_hover', { file_path: join(py, 'main.py'), line: 3, character: 15 });
    assert.equal(hover.isError, false, hover.text);
    assert.match(hover.text, /def total\(xs: list\[int\]\) -> int/, hover.text);
  });

  it('diagnostics are fresh and correct, in TypeScript and Python', async () => {
    const bad = await call(session, 'lsp_diagnostics', { file_path: 'src/bad.ts' });
    assert.equal(bad.isError, false, bad.text);
    assert.match(bad.text, /^src\/bad\.ts — 1 error \(fresh\)/);
    assert.match(bad.text, /src\/bad\.ts:1:14 error typescript\(2322\): Type 'string' is not assignable to type 'number'/);
    const clean = await call(session, 'lsp_diagnostics', { file_path: 'src/use.ts' });
    assert.equal(clean.text, 'src/use.ts — no problems (fresh)');
    const pyBad = await call(session, 'lsp_diagnostics', { file_path: join(py, 'bad.py') });
    assert.match(pyBad.text, /^bad\.py — 1 error \(fresh\)\nbad\.py:1:13 error Pyright\(reportAssignmentType\)/);
    const pyClean = await call(session, 'lsp_diagnostics', { file_path: join(py, 'main.py') });
    assert.equal(pyClean.text, 'main.py — no problems (fresh)');
  });

  it('a dependency changed on disk: lsp_edit_feedback reports the dependent\'s new error, and so does lsp_diagnostics', async () => {
    await call(session, 'lsp_diagnostics', { file_path: 'src/dep.ts' });
    writeFileSync(join(ts, 'src', 'dep.ts'), 'export function add(a: number, b: number): string {\n  return String(a + b);\n}\n');
    const feedback = await call(session, 'lsp_edit_feedback');
    assert.equal(feedback.isError, false, feedback.text);
    assert.match(feedback.text, /^LSP: 1 new error/);
    assert.match(feedback.text, /src\/use\.ts:3:14 error Type 'string' is not assignable to type 'number'\. \[typescript 2322\]/);
    const use = await call(session, 'lsp_diagnostics', { file_path: 'src/use.ts' });
    assert.match(use.text, /^src\/use\.ts — 1 error \(fresh\)\nsrc\/use\.ts:3:14 error typescript\(2322\)/);
    // nothing changed since: the next verdict says so, not "no new problems"
    const again = await call(session, 'lsp_edit_feedback');
    assert.match(again.text, /^LSP: the workspace watcher saw no file change under .* since the previous lsp_edit_feedback call$/);
    // a new file: every problem in it is new; then deleted: named, not judged
    writeFileSync(join(ts, 'src', 'extra.ts'), "export const extra: boolean = 'yes';\n");
    const created = await call(session, 'lsp_edit_feedback');
    assert.match(created.text, /^LSP: 1 new error — src\/extra\.ts:1:14 error Type 'string' is not assignable to type 'boolean'\. \[typescript 2322\]$/);
    rmSync(join(ts, 'src', 'extra.ts'));
    const deleted = await call(session, 'lsp_edit_feedback');
    assert.match(deleted.text, /^LSP: only deletions\nDeleted: src\/extra\.ts\. Files that used them are not judged here; call lsp_diagnostics on them\.$/);
  });

  it('a Python dependency changed on disk, in the second folder: lsp_edit_feedback and lsp_diagnostics report the dependent\'s new error', async () => {
    // shown once (a baseline, and pyright has the file open), as an agent reads a file before editing it
    assert.match((await call(session, 'lsp_diagnostics', { file_path: join(py, 'lib.py') })).text, /^lib\.py — no problems \(fresh\)/);
    writeFileSync(join(py, 'lib.py'), 'def total(xs: list[int]) -> str:\n    return str(sum(xs))\n');
    const feedback = await call(session, 'lsp_edit_feedback');
    assert.equal(feedback.isError, false, feedback.text);
    assert.match(feedback.text, /^LSP: 1 new error/);
    assert.match(feedback.text, /main\.py:3:14 error Type "str" is not assignable to declared type "int"/);
    const main = await call(session, 'lsp_diagnostics', { file_path: join(py, 'main.py') });
    assert.match(main.text, /^main\.py — 1 error \(fresh\)\nmain\.py:3:14 error Pyright\(reportAssignmentType\): Type "str" is not assignable to declared type "int"/);
  });

  it('format and rename write the files (rename in every file, all at once)', async () => {
    const formatted = await call(session, 'lsp_format', { file_path: 'src/fmt.ts' });
    assert.equal(formatted.isError, false, formatted.text);
    assert.match(formatted.text, /^Formatted src\/fmt\.ts/);
    assert.equal(readFileSync(join(ts, 'src', 'fmt.ts'), 'utf8'), 'export const spaced = { a: 1, b: 2 };\n');
    const renamed = await call(session, 'lsp_rename', { file_path: 'src/dep.ts', line: 1, character: 17, new_name: 'sum' });
    assert.equal(renamed.isError, false, renamed.text);
    assert.match(renamed.text, /^Renamed "add" at src\/dep\.ts:1:17 to "sum": 3 edits in 2 files\./);
    assert.match(readFileSync(join(ts, 'src', 'dep.ts'), 'utf8'), /^export function sum\(/);
    assert.match(readFileSync(join(ts, 'src', 'use.ts'), 'utf8'), /import \{ sum \} from '\.\/dep\.js';[\s\S]*= sum\(1, 2\)/);
  });

  it('bad input is a tool error naming the argument, and the server keeps serving', async () => {
    const wrongType = await call(session, 'lsp_diagnostics', { file_path: 5 });
    assert.equal(wrongType.isError, true);
    assert.match(wrongType.text, /"file_path" must be a string/);
    const missing = await call(session, 'lsp_rename', { file_path: 'src/dep.ts', line: 1 });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /missing required property "character"; missing required property "new_name"/);
    const zero = await call(session, 'lsp_signature', { file_path: 'src/use.ts', line: 0, character: 1 });
    assert.equal(zero.isError, true);
    assert.match(zero.text, /LSP_ACTION_INVALID_ARGS.*line must be a whole number of at least 1/);
    const escalation = await call(session, 'lsp_format', { file_path: 'src/fmt.ts', sandbox_permissions: 'danger-full-access' });
    assert.equal(escalation.isError, true);
    assert.match(escalation.text, /sandbox_permissions is not accepted here/);
    const unknown = await call(session, 'lsp_nothing');
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /unknown tool 'lsp_nothing'/);
    const outside = await call(session, 'lsp_diagnostics', { file_path: '/etc/hostname' });
    assert.equal(outside.isError, true);
    assert.match(outside.text, /LSP_ACTION_/);
    const still = await call(session, 'lsp_diagnostics', { file_path: 'src/bad.ts' });
    assert.match(still.text, /^src\/bad\.ts — 1 error \(fresh\)/);
  });

  it('8 concurrent calls each get their own file\'s answer', async () => {
    const files = Array.from({ length: 8 }, (_, i) => i + 1);
    const outcomes = await Promise.all(files.map((i) => call(session, 'lsp_diagnostics', { file_path: `src/f${i}.ts` })));
    for (const [index, outcome] of outcomes.entries()) {
      const i = index + 1;
      assert.equal(outcome.isError, false, outcome.text);
      assert.match(outcome.text, new RegExp(`^src/f${i}\\.ts — 1 error \\(fresh\\)\\nsrc/f${i}\\.ts:1:14 error typescript\\(2322\\)`));
    }
  });

  it('the end of stdin stops the server and every language server it started', async () => {
    const child = session.child();
    const pid = child.pid as number;
    const tree = descendants(pid);
    assert.ok(tree.length >= 2, `language servers run under the MCP server: ${tree.join(', ')}`);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin?.end();
    assert.equal(await exited, 0, session.stderr());
    await until('every language server is gone', () => tree.every((p) => !running(p)), 30_000);
    assert.equal(session.stderr().includes('warning: shutdown did not finish'), false, session.stderr());
  });
});

describe('mcp under read-only (the default): writes are refused, nothing is written', { timeout: TIMEOUT }, () => {
  let ts: string;
  let session: McpSession;

  before(async () => {
    // a .fake file on a fake server that answers documentSymbol after 4 s: a slow call, on demand
    ts = project({ ...TS_FILES, 'slow.fake': 'class Report\nERROR is reported here\n' }, 'ts-ro');
    session = await connect(['-w', ts, '--log-level', 'debug', '--servers', fakeServersFile({ delayMs: { 'textDocument/documentSymbol': 4_000 } })]);
  });
  after(async () => {
    await session?.transport.close();
  });

  it('format and rename are tool errors that say how the user allows writes', async () => {
    for (const [name, args] of [
      ['lsp_format', { file_path: 'src/fmt.ts' }],
      ['lsp_rename', { file_path: 'src/dep.ts', line: 1, character: 17, new_name: 'sum' }],
    ] as const) {
      const refused = await call(session, name, args);
      assert.equal(refused.isError, true, `${name}: ${refused.text}`);
      assert.match(refused.text, /^LSP_ACTION_READ_ONLY: .*\[sandbox: file access denied under read-only mode\]/);
      assert.match(refused.text, /This MCP server runs with --sandbox read-only\. .*--sandbox workspace-write/);
    }
    assert.equal(readFileSync(join(ts, 'src', 'fmt.ts'), 'utf8'), TS_FILES['src/fmt.ts']);
    assert.equal(readFileSync(join(ts, 'src', 'dep.ts'), 'utf8'), TS_FILES['src/dep.ts']);
    assert.equal(readFileSync(join(ts, 'src', 'use.ts'), 'utf8'), TS_FILES['src/use.ts']);
    const read = await call(session, 'lsp_diagnostics', { file_path: 'src/bad.ts' });
    assert.match(read.text, /^src\/bad\.ts — 1 error \(fresh\)/);
  });

  it('calls are served concurrently: a quick call answers while a slow one is still running', async () => {
    const warm = await call(session, 'lsp_diagnostics', { file_path: 'slow.fake' });
    assert.match(warm.text, /^slow\.fake — 1 error \(fresh\)/);
    const started = (): number => session.stderr().split('tools/call lsp_symbols').length;
    const startedBefore = started();
    const order: string[] = [];
    const slow = call(session, 'lsp_symbols', { file_path: 'slow.fake' }).then((outcome) => {
      order.push('lsp_symbols');
      return outcome;
    });
    await until('the slow call started in the server', () => started() > startedBefore, 60_000);
    const quick = await call(session, 'lsp_diagnostics', { file_path: 'slow.fake' });
    order.push('lsp_diagnostics');
    const symbols = await slow;
    assert.deepEqual(order, ['lsp_diagnostics', 'lsp_symbols']);
    assert.match(quick.text, /^slow\.fake — 1 error \(fresh\)/);
    assert.equal(symbols.isError, false, symbols.text);
    assert.match(symbols.text, /Report/);
  });

  it('SIGTERM cancels the call in flight with a tool result, exits 143, and leaves no process', async () => {
    const child = session.child();
    const tree = descendants(child.pid as number);
    assert.ok(tree.length >= 1, 'a language server runs under the MCP server');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const calls = (): number => session.stderr().split('tools/call lsp_symbols').length;
    const callsBefore = calls();
    // the fake server answers documentSymbol after 4 s: still running when the signal lands (a
    // whole-workspace check is not: the project warm-up has already checked every file)
    const inFlight = call(session, 'lsp_symbols', { file_path: 'slow.fake' });
    await until('the call started in the server', () => calls() > callsBefore, 60_000);
    child.kill('SIGTERM');
    const outcome = await inFlight;
    assert.equal(outcome.isError, true, outcome.text);
    assert.match(outcome.text, /^LSP_ACTION_CANCELLED/);
    assert.equal(await exited, 143, session.stderr());
    await until('every language server is gone', () => tree.every((p) => !running(p)), 30_000);
  });
});
