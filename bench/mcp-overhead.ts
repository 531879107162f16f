/**
 * Round-trip overhead of the MCP face (`dsh-lsp-actions mcp`) over the engine, against the
 * scriptable fake LSP server (fast and deterministic), on a warm document, on three tiers:
 *
 * - `engine`: the `LspEngine` of the mcp command's own default composition (sandboxed fs,
 *   observation policy, the same `--servers` file), booted in this process;
 * - `tool`: that composition's tool registry, `ctx.tools.execute` of the `lsp_*` tool with the
 *   call's root bound as the MCP face binds it (argument validation, action runner, timeout
 *   policy, output validation, the tool's text);
 * - `mcp`: `dsh-lsp-actions mcp` as a child process (built `lib/cli/main.js`), driven by the
 *   official SDK's `Client` over `StdioClientTransport`, `tools/call`.
 *
 * `mcp` − `tool` is the MCP protocol, the SDK on both ends and the process hop; `tool` − `engine`
 * is the tool layer every face shares. Rounds rotate the tier order so load hits all alike.
 *
 * Usage: npm run -s build && node bench/mcp-overhead.ts [--requests 1000] [--rounds 5] [--inflight 1,8]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallId } from '@deepseek-ai/dsh-llm';
import type { ToolRuntime } from '@deepseek-ai/dsh-tools';
import { bootPrepared, prepareComposition } from '../src/cli/prepare-composition.ts';
import { bindHostCallRoot } from '../src/tools/host-call-roots.ts';
import { fakeServerCommand } from '../tests/fixtures/fake-lsp-scenario.ts';
import { machineFacts, fmtLoad } from './machine.ts';
import { killSurvivors, processTree } from './process-tree.ts';
import { runLoad, withCpu } from './protocol-load.ts';
import { fmtMedianP95, fmtMs, summarize } from './stats.ts';

const TIERS = ['engine', 'tool', 'mcp'] as const;
type Tier = (typeof TIERS)[number];
type Op = () => Promise<string | undefined>;

const DOCUMENT = [
  'alpha beta gamma delta',
  'the quick brown fox jumps over the lazy dog',
  'ERROR is reported here',
  'WARN is reported here',
  'class Report',
  '  function total',
  ...Array.from({ length: 34 }, (_, i) => `line ${i + 5} holds some words to analyse`),
  '',
].join('\n');

const MAIN = join(import.meta.dirname, '..', 'lib', 'cli', 'main.js');
const signed = (ms: number): string => (ms < 0 ? `−${fmtMs(-ms)}` : `+${fmtMs(ms)}`);
const rotate = <T>(list: readonly T[], by: number): T[] => list.map((_, i) => list[(i + by) % list.length] as T);

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '5' }, inflight: { type: 'string', default: '1,8' } },
});
const REQUESTS = Number(values.requests);
const ROUNDS = Number(values.rounds);
const INFLIGHT = String(values.inflight).split(',').map(Number);

const started = performance.now();
const before = machineFacts();
const dir = mkdtempSync(join(tmpdir(), 'dsh-lsp-bench-mcp-'));
const file = join(dir, 'a.fake');
writeFileSync(file, DOCUMENT);
const fake = fakeServerCommand({});
writeFileSync(join(dir, 'servers.json'), JSON.stringify({ fake: { command: fake.command, args: fake.args, extensionToLanguage: { '.fake': 'fake' } } }));

const io = { stdin: process.stdin, stdout: process.stderr, stderr: process.stderr, env: process.env, cwd: dir };
const common = { servers: join(dir, 'servers.json'), logLevel: 'warn' } as const;
const booted = await bootPrepared(prepareComposition(common, { workspace: dir, sandbox: 'read-only', editor: false }, io), common, io);
const api = booted.lspActions();
if (api === undefined) throw new Error('the composition did not provide lspActions');
const tools = (booted.ctx as unknown as { tools: ToolRuntime }).tools;

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [MAIN, 'mcp', '--workspace', dir, '--servers', join(dir, 'servers.json')],
  env: { ...process.env } as Record<string, string>,
  stderr: 'inherit',
});
const client = new Client({ name: 'bench', version: '0' });
await client.connect(transport);
const mcpPid = transport.pid as number;

let calls = 0;
const viaTool = async (name: string, args: Record<string, unknown>): Promise<string> => {
  const callId = `bench-${++calls}`;
  const release = bindHostCallRoot(callId, dir);
  try {
    const result = await tools.execute({ callId: CallId(callId), name, arguments: args, signal: new AbortController().signal });
    const text = result.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
    return result.isError ? `error: ${text}` : text;
  } finally {
    release();
  }
};
const viaMcp = async (name: string, args: Record<string, unknown>): Promise<string> => {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ text?: string }>).map((b) => b.text ?? '').join('\n');
  return result.isError === true ? `error: ${text}` : text;
};
const target = { root: dir, path: file };
const expect = (pattern: RegExp) => (text: string): string | undefined => (pattern.test(text) ? undefined : `unexpected: ${text.slice(0, 200)}`);
const diagnosticsText = expect(/^a\.fake — 1 error, 1 warning \(fresh\)/);
const symbolsText = expect(/^(?!error:)[\s\S]*Report[\s\S]*total/);

const operations: Array<{ tool: string; engineCall: string; ops: Record<Tier, Op> }> = [
  {
    tool: 'lsp_diagnostics',
    engineCall: 'engine.diagnostics()',
    ops: {
      engine: async () => {
        const r = await api.engine.diagnostics(target);
        return r.state === 'fresh' && r.diagnostics.length === 2 ? undefined : `diagnostics ${r.state}, ${r.diagnostics.length}`;
      },
      tool: async () => diagnosticsText(await viaTool('lsp_diagnostics', { file_path: 'a.fake' })),
      mcp: async () => diagnosticsText(await viaMcp('lsp_diagnostics', { file_path: 'a.fake' })),
    },
  },
  {
    tool: 'lsp_symbols',
    engineCall: 'engine.documentSymbols()',
    ops: {
      engine: async () => ((await api.engine.documentSymbols(target)).symbols.length > 0 ? undefined : 'no symbols'),
      tool: async () => symbolsText(await viaTool('lsp_symbols', { file_path: 'a.fake' })),
      mcp: async () => symbolsText(await viaMcp('lsp_symbols', { file_path: 'a.fake' })),
    },
  },
];

const fakeOf = (root: number): number => {
  const pid = processTree([root]).at(-1);
  if (pid === undefined) throw new Error('no fake server under the process');
  return pid;
};
await api.engine.diagnostics(target);
await viaMcp('lsp_diagnostics', { file_path: 'a.fake' });
const enginePid = api.engine.liveServers()[0]?.pid;
if (enginePid === undefined) throw new Error('the in-process engine did not start the fake server');
const fakes = { inProcess: enginePid, mcp: fakeOf(mcpPid) };
const roles = (tier: Tier): Record<string, number> =>
  tier === 'mcp' ? { host: process.pid, mcp: mcpPid, server: fakes.mcp } : { host: process.pid, server: fakes.inProcess };

const rows: string[] = [];
for (const op of operations) {
  for (const tier of TIERS) {
    const warm = await runLoad(Math.ceil(REQUESTS / 5), 1, op.ops[tier]);
    if (warm.failures > 0) throw new Error(`${op.tool} on ${tier}: ${warm.firstFailure ?? ''}`);
  }
  const cells = new Map<string, { median: number; p95: number; rps: number; cpu: Record<string, number> }>();
  for (const inflight of INFLIGHT) {
    const acc = new Map<Tier, { latencies: number[]; wallMs: number; failures: number; cpu: Record<string, number> }>(
      TIERS.map((tier) => [tier, { latencies: [], wallMs: 0, failures: 0, cpu: {} }]),
    );
    for (let round = 0; round < ROUNDS; round++) {
      for (const tier of rotate(TIERS, round)) {
        const a = acc.get(tier) as NonNullable<ReturnType<typeof acc.get>>;
        const { value, cpuMs } = await withCpu(roles(tier), () => runLoad(Math.ceil(REQUESTS / ROUNDS), inflight, op.ops[tier]));
        a.latencies.push(...value.latencies);
        a.wallMs += value.wallMs;
        a.failures += value.failures;
        if (value.failures > 0) throw new Error(`${op.tool} on ${tier}: ${value.firstFailure ?? ''}`);
        for (const [role, ms] of Object.entries(cpuMs)) a.cpu[role] = (a.cpu[role] ?? 0) + ms;
      }
    }
    for (const [tier, a] of acc) {
      const s = summarize(a.latencies);
      const perRequest = Object.fromEntries(Object.entries(a.cpu).map(([role, ms]) => [role, ms / a.latencies.length]));
      cells.set(`${tier}/${inflight}`, { median: s.median, p95: s.p95, rps: (a.latencies.length / a.wallMs) * 1000, cpu: perRequest });
      process.stderr.write(`${op.tool} ${tier} ×${inflight}: ${fmtMedianP95(s)}, ${((a.latencies.length / a.wallMs) * 1000).toFixed(0)} req/s\n`);
    }
  }
  for (const tier of TIERS) {
    const label = { engine: `(1) the engine of the mcp composition, in-process: \`${op.engineCall}\``, tool: '(2) the tool registry of that composition, in-process: `ctx.tools.execute`', mcp: '(3) through `dsh-lsp-actions mcp` (SDK client, stdio)' }[tier];
    const parts = INFLIGHT.flatMap((n) => {
      const c = cells.get(`${tier}/${n}`);
      return c === undefined ? ['—', '—'] : [c.rps.toFixed(0), `${fmtMs(c.median)} / ${fmtMs(c.p95)}`];
    });
    const cpu = cells.get(`${tier}/1`)?.cpu ?? {};
    const cpuText = tier === 'mcp' ? `${(cpu['host'] ?? 0).toFixed(2)} · ${(cpu['mcp'] ?? 0).toFixed(2)} · ${(cpu['server'] ?? 0).toFixed(2)}` : `${(cpu['host'] ?? 0).toFixed(2)} · — · ${(cpu['server'] ?? 0).toFixed(2)}`;
    rows.push(`| \`${op.tool}\` · ${label} | ${parts.join(' | ')} | ${cpuText} |`);
  }
  for (const [from, to, name] of [['tool', 'mcp', '(3) − (2): MCP'], ['engine', 'mcp', '(3) − (1): all']] as const) {
    const parts = INFLIGHT.flatMap((n) => {
      const a = cells.get(`${from}/${n}`);
      const b = cells.get(`${to}/${n}`);
      return a === undefined || b === undefined ? ['—', '—'] : [`${(b.rps / a.rps).toFixed(2)}× of (${from === 'tool' ? 2 : 1})`, `**${signed(b.median - a.median)}** / ${signed(b.p95 - a.p95)}`];
    });
    rows.push(`| \`${op.tool}\` · **overhead ${name}** | ${parts.join(' | ')} |  |`);
  }
}

const tree = processTree([mcpPid]);
// the SDK's close ends stdin and waits up to 2 s before it signals; the tree is checked after
await client.close();
await booted.dispose();
const killed = killSurvivors(tree);
rmSync(dir, { recursive: true, force: true });
const after = machineFacts();
const head = INFLIGHT.flatMap((n) => (n === 1 ? ['sequential: req/s', 'median / p95'] : [`${n} in flight: req/s`, 'median / p95']));
process.stdout.write(
  [
    `Machine: ${before.cpuCount}× ${before.cpuModel}, Node ${before.node}, commit ${before.commit}; load ${fmtLoad(before.load)} before, ${fmtLoad(after.load)} after; ${((performance.now() - started) / 1000).toFixed(0)} s.`,
    `n = ${REQUESTS} timed requests per cell (${ROUNDS} rounds, tier order rotated), after ${Math.ceil(REQUESTS / 5)} untimed; a ${DOCUMENT.split('\n').length}-line .fake document, warm.`,
    '',
    `| Tool · tier | ${head.join(' | ')} | CPU ms per request, sequential: this process · mcp · fake server |`,
    `| --- | ${head.map(() => '---').join(' | ')} | --- |`,
    ...rows,
    '',
    `Processes left after the MCP client closed: ${killed.length === 0 ? 'none' : killed.join(', ')}.`,
    '',
  ].join('\n'),
);
process.exit(0);
