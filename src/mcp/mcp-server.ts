/**
 * The MCP face: an MCP server (official TypeScript SDK, low-level `Server`) whose tools are the
 * composition's `lsp_*` tools. `tools/list` is read from the tool registry (mcp-tool-catalog.ts);
 * `tools/call` runs the tool through the registry (`ctx.tools.execute`: argument validation,
 * the timeout policy, output validation, the tool's own text) with the call's workspace root
 * bound to its id, and answers with the text an agent would read. Every failure — bad
 * arguments, an unknown tool, a refused write, a crashed server — is a tool result with
 * `isError`, and the server keeps serving; calls run concurrently.
 *
 * The transport is connected at once, so `initialize` is answered while the composition boots;
 * tool requests wait for the boot.
 */
import { randomUUID } from 'node:crypto';
import { isAbsolute, resolve, sep } from 'node:path';
import type { JsonValue } from '@deepseek-ai/dsh-session';
import type { ToolExecutionResult, ToolRuntime } from '@deepseek-ai/dsh-tools';
import { CallId } from '@deepseek-ai/dsh-llm';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { bindHostCallRoot } from '../tools/host-call-roots.ts';
import { escalationArgOf, LSP_TOOL_PREFIX, mcpTools } from './mcp-tool-catalog.ts';

/** What the tools run on, once the composition booted. */
export interface McpBackend {
  tools: Pick<ToolRuntime, 'schemas' | 'get' | 'execute'>;
  /** Served folders, absolute; the first is the default root. */
  folders: readonly string[];
  /** The standing sandbox mode, when the face knows it (the default composition). */
  sandbox?: string;
  /**
   * Told every successful call's value before the result is sent (the face records
   * `lsp_diagnostics` answers as baselines, so a call the client sends next sees them).
   */
  onResult?: (name: string, root: string, value: JsonValue) => void | Promise<void>;
  /** A debug log line per call started. */
  debug?: (line: string) => void;
}

/** Server identity and the text an MCP client may show its model. */
export interface McpServerInfo {
  name: string;
  version: string;
  instructions: string;
}

/** A running MCP face. */
export interface McpFace {
  server: Server;
  /** Settles once every call in flight has answered. */
  idle(): Promise<void>;
  /** Aborts every call in flight. */
  abortAll(reason: unknown): void;
}

/**
 * @param info name, version, instructions
 * @param backend resolves once the composition booted (rejects when it failed)
 * @param transport the stdio transport (or another, in tests)
 * @returns the face, connected
 */
export async function startMcpServer(info: McpServerInfo, backend: Promise<McpBackend>, transport: Transport): Promise<McpFace> {
  const server = new Server({ name: info.name, version: info.version }, { capabilities: { tools: { listChanged: false } }, instructions: info.instructions });
  const inFlight = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
  const prefix = `mcp-${randomUUID().slice(0, 8)}`;
  let calls = 0;

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: mcpTools((await backend).tools) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const callId = `${prefix}-${++calls}`;
    const controller = new AbortController();
    const signal = AbortSignal.any([extra.signal, controller.signal]);
    const done = callTool(await backend, request.params.name, request.params.arguments, callId, signal);
    inFlight.set(callId, { controller, done });
    try {
      return await done;
    } finally {
      inFlight.delete(callId);
    }
  });
  await server.connect(transport);
  return {
    server,
    idle: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight.values()].map((call) => call.done));
    },
    abortAll: (reason) => {
      for (const call of inFlight.values()) call.controller.abort(reason);
    },
  };
}

/**
 * One `tools/call`, as an MCP result (never a thrown JSON-RPC error).
 * @param backend the booted composition
 * @param name the tool
 * @param rawArgs the arguments as sent
 * @param callId this call's id
 * @param signal the client's cancellation, and the face's own stop
 * @returns the result
 */
export async function callTool(backend: McpBackend, name: string, rawArgs: unknown, callId: string, signal: AbortSignal): Promise<CallToolResult> {
  if (!name.startsWith(LSP_TOOL_PREFIX) || backend.tools.get(name) === undefined) {
    return toolError('LSP_ACTION_INVALID_ARGS', `unknown tool '${name}'; tools/list names the tools of this server`);
  }
  const args = rawArgs ?? {};
  if (typeof args !== 'object' || Array.isArray(args)) return toolError('LSP_ACTION_INVALID_ARGS', 'arguments must be an object');
  const escalation = escalationArgOf(args as Record<string, unknown>);
  if (escalation !== undefined) {
    return toolError(
      'LSP_ACTION_INVALID_ARGS',
      `${escalation} is not accepted here: an MCP server cannot ask the user for wider access. ${sandboxRemedy(backend.sandbox)}`,
    );
  }
  const root = rootOf(args, backend.folders);
  const release = bindHostCallRoot(callId, root);
  backend.debug?.(`tools/call ${name} (${callId}) in ${root}`);
  let result: ToolExecutionResult;
  try {
    result = await backend.tools.execute({ callId: CallId(callId), name, arguments: args, signal });
  } finally {
    release();
  }
  const text = result.content.map((block) => (block.type === 'text' ? block.text : JSON.stringify(block))).join('\n');
  if (!result.isError) {
    await backend.onResult?.(name, root, result.value);
    return { content: [{ type: 'text', text }] };
  }
  const code = errorCode(result);
  const remedy = code === 'LSP_ACTION_READ_ONLY' ? `\n${sandboxRemedy(backend.sandbox)}` : '';
  return toolError(code, `${text}${remedy}`);
}

/** @returns the error's stable code, when the failure carries one */
function errorCode(result: ToolExecutionResult): string | undefined {
  const info = result.error?.info as { code?: unknown } | undefined;
  return typeof info?.code === 'string' ? info.code : undefined;
}

/** @returns an `isError` result whose text starts with the code */
function toolError(code: string | undefined, message: string): CallToolResult {
  const text = code === undefined || message.includes(code) ? message : `${code}: ${message}`;
  return { isError: true, content: [{ type: 'text', text }] };
}

/** @returns how the user widens the mode */
export function sandboxRemedy(mode: string | undefined): string {
  const now = mode === undefined ? '' : `This MCP server runs with --sandbox ${mode}. `;
  return `${now}Only the user can allow writes: by starting the server with --sandbox workspace-write (writes inside the workspace) in the MCP client's configuration.`;
}

/**
 * The root a call works in: the served folder holding the absolute path the call names (the
 * innermost, when folders nest), else the first folder.
 * @param args the call's arguments
 * @param folders the served folders
 * @returns the root
 */
export function rootOf(args: object, folders: readonly string[]): string {
  const named = args as { file_path?: unknown; file_paths?: unknown };
  const first = typeof named.file_path === 'string' ? named.file_path : Array.isArray(named.file_paths) ? named.file_paths[0] : undefined;
  const fallback = folders[0] as string;
  if (typeof first !== 'string' || !isAbsolute(first.trim())) return fallback;
  const path = resolve(first.trim());
  const holding = folders.filter((folder) => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep));
  return holding.sort((a, b) => b.length - a.length)[0] ?? fallback;
}
