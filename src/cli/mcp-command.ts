/**
 * `dsh-lsp-actions mcp`: the agent tools as an MCP server on stdio, for MCP clients (Claude Code,
 * Codex, Cursor, opencode, Zed). Boots the same default composition as `serve` (or `--config`)
 * without the editor protocol, answers `initialize` while it boots, and runs until stdin ends
 * (calls in flight are answered first), the parent dies, or a signal arrives (calls in flight
 * are cancelled); then every language server is stopped and the process exits (0, or 128 + the
 * signal number). stdout carries MCP frames only; logs go to stderr.
 */
import { rm } from 'node:fs/promises';
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import type { ToolRuntime } from '@deepseek-ai/dsh-tools';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { nodeWorkspaceWatch } from '../documents/node-workspace-watcher.ts';
import { recoverAtStart } from '../edits/startup-recovery.ts';
import { drainWrites } from '../edits/write-drain.ts';
import { ChangedFiles } from '../mcp/changed-files.ts';
import { lspEditFeedbackTool } from '../mcp/lsp-edit-feedback-tool.ts';
import { MCP_INSTRUCTIONS } from '../mcp/mcp-instructions.ts';
import { type McpBackend, startMcpServer } from '../mcp/mcp-server.ts';
import type { BootedComposition } from './boot-composition.ts';
import { type CliIo, resolveWorkspace, SetupError } from './cli-io.ts';
import { PACKAGE_NAME, PACKAGE_VERSION } from './package-info.ts';
import type { McpCommand } from './parse-args.ts';
import { bootPrepared, prepareComposition } from './prepare-composition.ts';
import { EXIT_CODES, ensureEndIsSeen, flushed, keepConsoleOffStdout, type StopReason, whenParentDies, whenSignalled } from './serve-command.ts';

/**
 * @param cmd the parsed command
 * @param io streams, environment, working directory
 * @param stopped resolves when stdin ends or SIGINT/SIGTERM arrives
 * @returns the exit code
 * @throws SetupError on setup problems (exit 2)
 */
export async function runMcp(cmd: McpCommand, io: CliIo, stopped: Promise<StopReason>): Promise<number> {
  const workspace = resolveWorkspace(cmd.workspace, io.cwd);
  const folders = [workspace, ...(cmd.workspaces ?? []).slice(1).map((folder) => resolveWorkspace(folder, io.cwd))];
  if (cmd.config !== undefined && cmd.workspace !== undefined) process.chdir(workspace);
  const prepared = prepareComposition(cmd, { workspace, sandbox: cmd.sandbox, editor: false }, io);
  if (io.ownsProcess === true) keepConsoleOffStdout(io.stderr);

  let booted: BootedComposition | undefined;
  let changes: ChangedFiles | undefined;
  const backend = (async (): Promise<McpBackend> => {
    booted = await bootPrepared(prepared, cmd, io);
    const api = booted.lspActions();
    if (api === undefined) throw new SetupError('the composition does not provide lspActions: there are no tools to serve');
    const ctx = booted.ctx as unknown as { fs?: FileSystem; tools?: ToolRuntime };
    if (ctx.tools === undefined || ctx.fs === undefined) throw new SetupError('the composition has no tools or fs service: there are no tools to serve');
    const { fs, tools } = ctx;
    const log = booted.ctx.logger('dsh-lsp-actions');
    // an edit a crash left half-applied is put back before anything is served
    await recoverAtStart(fs, folders, { removeStaging: (path) => rm(path, { recursive: true, force: true }), report: (line) => log.warn(line) });
    changes = new ChangedFiles(folders, nodeWorkspaceWatch());
    // the same verdict DSH appends to a write; absent when the composition turns edit feedback off
    // each folder's project loads in the background, as a DSH session's does on first touch: the
    // first edits are compared with a fresh check, not listed as "no earlier check"
    for (const folder of folders) api.warmUp?.(folder);
    if (api.verdictFor !== undefined) tools.register(lspEditFeedbackTool({ verdictFor: api.verdictFor, engine: api.engine, config: api.config, changes, folders }));
    else log.info('editFeedback.enabled is off: lsp_edit_feedback is not served');
    log.info('serving MCP on stdio for %s (servers: %s)', folders.join(', '), Object.keys(api.config.servers).join(', '));
    return {
      tools,
      folders,
      ...(prepared.entries === undefined ? {} : { sandbox: cmd.sandbox }),
      debug: (line) => log.debug(line),
    };
  })();
  // a failed boot is reported by the command (below), not as an unhandled rejection
  backend.catch(() => undefined);

  const transport = new StdioServerTransport(io.stdin as NodeJS.ReadStream, io.stdout as NodeJS.WriteStream);
  const face = await startMcpServer({ name: PACKAGE_NAME, version: PACKAGE_VERSION, instructions: MCP_INSTRUCTIONS }, backend, transport);
  ensureEndIsSeen(io.stdin);
  const watch = new AbortController();
  const reason = await Promise.race<StopReason | { failed: unknown }>([
    stopped,
    whenSignalled(watch.signal),
    ...(io.ownsProcess === true ? [whenParentDies(watch.signal)] : []),
    backend.then(() => new Promise<never>(() => undefined), (failed: unknown) => ({ failed })),
  ]);
  watch.abort();
  if (typeof reason === 'string' && reason !== 'eof') face.abortAll(new Error(`stopping (${reason})`));
  // the client went away (stdin ended): the calls it sent are still answered; on a signal they
  // are cancelled, and their (cancelled) results still sent
  await face.idle();
  await new Promise<void>((resolve) => setImmediate(resolve));
  await flushed(io.stdout);
  await face.server.close().catch(() => undefined);
  changes?.dispose();
  await drainWrites();
  const clean = booted === undefined ? true : await booted.dispose();
  await drainWrites();
  if (!clean) io.stderr.write('warning: shutdown did not finish in time; remaining processes are terminated at exit\n');
  await flushed(io.stdout);
  if (typeof reason === 'object') throw reason.failed;
  return EXIT_CODES[reason];
}
