/**
 * The MCP e2e bed: a TypeScript project and a Python one in a temp folder, a `--servers` file
 * pointing the pyright preset at the pinned test server, and a `dsh-lsp-actions mcp` process
 * (the built `lib/cli/main.js`) spawned by the official SDK's `StdioClientTransport`.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO } from '../cli/cli-harness.ts';
import { MAIN } from '../cli/serve-process.ts';
import { type FakeScenario, fakeServerCommand } from '../fixtures/fake-lsp-scenario.ts';
import { PYRIGHT } from '../support/servers.ts';

/** Whether pyright is installed for the tests (`npm run test:servers`). */
export const PYRIGHT_INSTALLED = existsSync(PYRIGHT);

/** Files of the TypeScript project. */
export const TS_FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true } }),
  'src/dep.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  'src/use.ts': "import { add } from './dep.js';\n\nexport const total: number = add(1, 2);\n",
  'src/bad.ts': "export const count: number = 'three';\n",
  'src/fmt.ts': 'export const   spaced   =  {a:1,b:2};\n',
  ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`src/f${i + 1}.ts`, `export const v${i + 1}: number = 'x${i + 1}';\n`])),
};

/** Files of the Python project. */
export const PY_FILES: Record<string, string> = {
  'pyproject.toml': '[tool.pyright]\n',
  'lib.py': 'def total(xs: list[int]) -> int:\n    return sum(xs)\n',
  'main.py': 'from lib import total\n\ncount: int = total([1, 2])\n',
  'bad.py': 'name: int = "seven"\n',
};

/**
 * @param files relative path → text
 * @param label folder name prefix
 * @returns a new folder holding them
 */
export function project(files: Record<string, string>, label: string): string {
  const root = mkdtempSync(join(tmpdir(), `mcp-${label}-`));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/**
 * @returns a `--servers` file with a pyright entry running the pinned test server with this Node
 *   (a whole entry: an override of an undetected preset does not take the preset's fields)
 */
export function serversFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-servers-'));
  const file = join(dir, 'servers.json');
  const entry = {
    command: process.execPath,
    args: [PYRIGHT, '--stdio'],
    extensionToLanguage: { '.py': 'python' },
    rootMarkers: ['pyproject.toml'],
    configuration: { python: { analysis: { diagnosticMode: 'openFilesOnly' } } },
  };
  writeFileSync(file, JSON.stringify({ pyright: entry }));
  return file;
}

/**
 * @param scenario the fake server's scenario (tests/fixtures/fake-lsp-scenario.ts)
 * @returns a `--servers` file routing `.fake` files to the fake LSP server
 */
export function fakeServersFile(scenario: FakeScenario): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-fake-servers-'));
  const file = join(dir, 'servers.json');
  const { command, args } = fakeServerCommand(scenario);
  writeFileSync(file, JSON.stringify({ fake: { command, args, extensionToLanguage: { '.fake': 'fake' } } }));
  return file;
}

/** A connected client and its server process. */
export interface McpSession {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  /** The spawned server process (the SDK keeps it private; the lifecycle tests need its stdin). */
  child: () => ChildProcess;
}

/**
 * @param args arguments after `mcp`
 * @returns a client connected to a spawned `dsh-lsp-actions mcp`
 */
export async function connect(args: string[]): Promise<McpSession> {
  if (!existsSync(MAIN)) throw new Error('run `npm run build` first: lib/cli/main.js is missing');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'mcp', ...args],
    // this Node only: no language server is found on the machine's PATH by accident
    env: { PATH: dirname(process.execPath), HOME: tmpdir() },
    stderr: 'pipe',
    cwd: REPO,
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'dsh-lsp-actions-e2e', version: '0.0.0' });
  await client.connect(transport);
  // the SDK keeps its child private (its own close() ends stdin, then signals after 2 s); the
  // lifecycle test ends stdin alone and waits, so it reads the child from the transport
  return { client, transport, stderr: () => stderr, child: () => Reflect.get(transport, '_process') as ChildProcess };
}

/** One tool call's outcome as a model would read it. */
export interface CallOutcome {
  isError: boolean;
  text: string;
}

/**
 * @param session the client
 * @param name tool name
 * @param args arguments
 * @returns whether it failed, and its text
 */
export async function call(session: McpSession, name: string, args: Record<string, unknown> = {}): Promise<CallOutcome> {
  const result = await session.client.callTool({ name, arguments: args }, undefined, { timeout: 180_000 });
  const content = result.content as Array<{ type: string; text?: string }>;
  return { isError: result.isError === true, text: content.map((block) => block.text ?? '').join('\n') };
}
