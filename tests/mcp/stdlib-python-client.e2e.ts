/**
 * A second, independent MCP client: a standard-library Python script speaking the wire itself
 * (tests/mcp/fixtures/stdlib_mcp_client.py), strict where the SDK is lenient — every stdout line
 * one complete JSON-RPC 2.0 message, one answer per id, string and number ids — against the
 * built `dsh-lsp-actions mcp` on a real TypeScript project.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { MAIN } from '../cli/serve-process.ts';
import { project, TS_FILES } from './mcp-harness.ts';

const CLIENT = join(import.meta.dirname, 'fixtures', 'stdlib_mcp_client.py');
const PYTHON = spawnSync('python3', ['--version']).status === 0 ? 'python3' : undefined;

interface Answer {
  id: unknown;
  result?: Record<string, any>;
  error?: { code: number; message: string };
}

describe('mcp with a standard-library Python client', { timeout: 300_000, skip: PYTHON === undefined && 'python3 is not installed' }, () => {
  it('handshake, tools/list, fresh diagnostics, a bad argument, an unknown method, ping; clean frames; exit 0 at the end of stdin', () => {
    const ts = project(TS_FILES, 'py-client');
    const script = [
      ['tools/list', {}],
      ['tools/call', { name: 'lsp_diagnostics', arguments: { file_path: 'src/bad.ts' } }],
      ['tools/call', { name: 'lsp_diagnostics', arguments: { file_path: ['src/bad.ts'] } }],
      ['no/such/method', {}],
      ['ping', {}],
      ['tools/call', { name: 'lsp_symbols', arguments: { file_path: 'src/dep.ts' } }],
    ];
    const run = spawnSync(PYTHON as string, [CLIENT, JSON.stringify(script), '--', process.execPath, MAIN, 'mcp', '--workspace', ts], {
      encoding: 'utf8',
      env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: ts },
      timeout: 280_000,
    });
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout) as { initialize: Answer; steps: Answer[]; exitCode: number; violations: string[]; stderrTail: string };
    assert.deepEqual(report.violations, [], report.stderrTail);
    assert.equal(report.initialize.result?.['protocolVersion'], '2025-06-18');
    assert.equal(report.initialize.result?.['serverInfo']?.name, 'dsh-lsp-actions');
    assert.ok(report.initialize.result?.['capabilities']?.tools, 'the server offers tools');
    const [list, diagnostics, badArg, unknown, ping, symbols] = report.steps as [Answer, Answer, Answer, Answer, Answer, Answer];
    assert.equal(list.id, 100);
    const tools = (list.result?.['tools'] ?? []) as Array<{ name: string }>;
    assert.ok(tools.some((tool) => tool.name === 'lsp_diagnostics'), JSON.stringify(list));
    assert.equal(diagnostics.id, 'step-1');
    assert.equal(diagnostics.result?.['isError'], undefined);
    assert.match(diagnostics.result?.['content'][0].text, /^src\/bad\.ts — 1 error \(fresh\)\nsrc\/bad\.ts:1:14 error typescript\(2322\)/);
    assert.equal(badArg.result?.['isError'], true);
    assert.match(badArg.result?.['content'][0].text, /"file_path" must be a string/);
    assert.equal(unknown.error?.code, -32601, JSON.stringify(unknown));
    assert.deepEqual(ping.result, {});
    assert.match(symbols.result?.['content'][0].text, /add/);
    assert.equal(report.exitCode, 0, report.stderrTail);
  });
});
