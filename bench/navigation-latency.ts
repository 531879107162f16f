/**
 * Navigation tools (issue 22) on the generated 200-file project with typescript-language-server:
 * each tool's warm latency through the harness tool runtime (`ctx.tools.execute`: addressing,
 * the engine's sync, the request, source lines, declaration marks, rendering) next to the raw
 * server's own answer time for the same request on a second, bare connection (the LSP requests
 * alone: no sync, no source lines). Symbol-name addressing is measured as its own row.
 *
 *   node bench/navigation-latency.ts [--iterations N]
 *
 * Prints a Markdown section for docs/benchmarks.md.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Context } from '@deepseek-ai/cordis';
import { LocalFileSystem } from '@deepseek-ai/dsh-fs-local';
import { LocalSubprocessRuntime } from '@deepseek-ai/dsh-subprocess-local';
import { SystemPrompt } from '@deepseek-ai/dsh-system-prompt';
import { ToolRuntime } from '@deepseek-ai/dsh-tools';
import { CallId } from '@deepseek-ai/dsh-llm';
import * as plugin from '../src/index.ts';
import { generateProject, type BenchPosition } from './generate-project.ts';
import { fmtLoad, machineFacts } from './machine.ts';
import { startRawServer, uriOf, didOpen } from './raw-session.ts';
import { tslsSpec } from './server-specs.ts';
import { fmtMedianP95, summarize } from './stats.ts';

const { values } = parseArgs({ options: { iterations: { type: 'string', default: '10' } } });
const ITERATIONS = Number(values.iterations);
const log = (line: string): void => void process.stderr.write(`${line}\n`);

const root = mkdtempSync(join(tmpdir(), 'lsp-nav-bench-'));
const project = generateProject(root);
const typesPath = join(root, 'src', 'core', 'types.ts');
const typesLines = readFileSync(typesPath, 'utf8').split('\n');
const inTypes = (needle: string, line = typesLines.findIndex((l) => l.includes(needle))): BenchPosition => ({ line, character: typesLines[line]?.indexOf(needle) ?? 0 });
const registry = inTypes('Registry<T extends Entity>');
const weigh = inTypes('weigh(name');
const rel = (path: string): string => path.slice(root.length + 1);

/** One measured tool call and the raw request(s) it stands next to. */
interface Row {
  tool: string;
  label: string;
  args: Record<string, unknown>;
  raw: Array<{ method: string; params: (uri: string) => unknown }>;
  rawPath: string;
}
const pos = (path: string, p: BenchPosition) => ({ file_path: rel(path), line: p.line + 1, character: p.character + 1 });
const at = (p: BenchPosition) => (uri: string) => ({ textDocument: { uri }, position: p });
const ROWS: Row[] = [
  { tool: 'lsp_definition', label: 'position', args: pos(project.appPath, project.probes.definition), raw: [{ method: 'textDocument/definition', params: at(project.probes.definition) }], rawPath: project.appPath },
  { tool: 'lsp_references', label: 'position (`Entity`, 50 of all listed)', args: pos(project.appPath, project.probes.references), raw: [{ method: 'textDocument/references', params: (uri) => ({ ...at(project.probes.references)(uri), context: { includeDeclaration: true } }) }, { method: 'textDocument/definition', params: at(project.probes.references) }], rawPath: project.appPath },
  { tool: 'lsp_hover', label: 'position', args: pos(project.appPath, project.probes.hover), raw: [{ method: 'textDocument/hover', params: at(project.probes.hover) }], rawPath: project.appPath },
  { tool: 'lsp_implementation', label: 'position (`Registry`, 197 classes)', args: pos(typesPath, registry), raw: [{ method: 'textDocument/implementation', params: at(registry) }], rawPath: typesPath },
  { tool: 'lsp_call_hierarchy', label: 'incoming (`weigh`)', args: pos(typesPath, weigh), raw: [{ method: 'textDocument/prepareCallHierarchy', params: at(weigh) }], rawPath: typesPath },
  { tool: 'lsp_workspace_symbols', label: 'query `Model19`', args: { query: 'Model19' }, raw: [{ method: 'workspace/symbol', params: () => ({ query: 'Model19' }) }], rawPath: project.appPath },
  { tool: 'lsp_references', label: 'symbol `weigh` (name resolution + references)', args: { symbol: 'weigh' }, raw: [{ method: 'workspace/symbol', params: () => ({ query: 'weigh' }) }, { method: 'textDocument/references', params: (uri) => ({ ...at(weigh)(uri), context: { includeDeclaration: true } }) }, { method: 'textDocument/definition', params: at(weigh) }], rawPath: typesPath },
];

const ctx = new Context();
await ctx.plugin(LocalSubprocessRuntime);
await ctx.plugin(LocalFileSystem, { cwd: root });
await ctx.plugin(SystemPrompt);
await ctx.plugin(ToolRuntime);
await ctx.plugin(plugin as unknown as Parameters<typeof ctx.plugin>[0], {});
const agent = { session: { header: { cwd: root } } };
let calls = 0;
async function tool(name: string, args: Record<string, unknown>): Promise<{ ms: number; text: string }> {
  const t0 = performance.now();
  const result = await ctx.tools.execute({ callId: CallId(`b${++calls}`), name, arguments: args, agent: agent as never, signal: new AbortController().signal } as never);
  const ms = performance.now() - t0;
  const text = (result as { content: Array<{ text?: string }> }).content.map((c) => c.text ?? '').join('\n');
  if ((result as { isError?: boolean }).isError) throw new Error(`${name}: ${text}`);
  return { ms, text };
}

const raw = await startRawServer(tslsSpec(), root);
const opened = new Set<string>();
async function rawAnswer(row: Row): Promise<number> {
  if (!opened.has(row.rawPath)) {
    didOpen(raw, row.rawPath, 1, readFileSync(row.rawPath, 'utf8'));
    opened.add(row.rawPath);
  }
  const t0 = performance.now();
  let previous: unknown;
  for (const step of row.raw) {
    previous = await raw.request(step.method, step.params(uriOf(row.rawPath)));
  }
  if (row.tool === 'lsp_call_hierarchy' && Array.isArray(previous) && previous[0] !== undefined) await raw.request('callHierarchy/incomingCalls', { item: previous[0] });
  return performance.now() - t0;
}

const lines: string[] = [];
try {
  // warm both: the first answer of each loads the project
  for (const row of ROWS) {
    const first = await tool(row.tool, row.args);
    log(`${row.tool} ${row.label}: first ${first.ms.toFixed(0)} ms — ${first.text.split('\n')[0]}`);
    await rawAnswer(row);
  }
  for (const row of ROWS) {
    const toolMs: number[] = [];
    const rawMs: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      toolMs.push((await tool(row.tool, row.args)).ms);
      rawMs.push(await rawAnswer(row));
    }
    const t = summarize(toolMs);
    const r = summarize(rawMs);
    lines.push(`| \`${row.tool}\` | ${row.label} | ${fmtMedianP95(t)} | ${fmtMedianP95(r)} | ${row.raw.map((s) => `\`${s.method}\``).join(' + ')}${row.tool === 'lsp_call_hierarchy' ? ' + `callHierarchy/incomingCalls`' : ''} |`);
    log(lines.at(-1) ?? '');
  }
} finally {
  await raw.shutdown().catch(() => undefined);
  await ctx.root.fiber.dispose().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
}

const facts = machineFacts();
process.stdout.write(
  [
    '## Navigation tools (issue 22)',
    '',
    `Command: \`node bench/navigation-latency.ts --iterations ${ITERATIONS}\` (generated 200-file project, typescript-language-server 5.3.0 + TypeScript 5.9.3, warm; ${facts.cpuCount} cores, commit ${facts.commit}, load ${fmtLoad(facts.load)}).`,
    'Tool: `ctx.tools.execute` through the harness tool runtime — addressing (nearest-name snap or symbol resolution), the engine\'s sync of open files, the request(s), source lines, declaration marks, rendering. Raw: the same LSP request(s) on a second, bare typescript-language-server connection with the file open.',
    '',
    '| Tool | Case | Tool median / p95 | Raw server median / p95 | Raw requests |',
    '|---|---|---|---|---|',
    ...lines,
    '',
  ].join('\n'),
);
