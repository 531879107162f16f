/**
 * `dsh-lsp-actions check [PATH…]`: boots the same composition as `serve` in-process (editor
 * off, sandbox read-only: checking never writes), asks the plugin's action runner for
 * `diagnostics.get` on every file a language server handles, a few files at a time, and prints
 * the report in the requested format. Exit codes: see {@link exitCodeOf} and the help text.
 */
import { isInside } from '../actions/action-runner.ts';
import type { LspActionsApi } from '../lsp-actions-api.ts';
import type { BootedComposition } from './boot-composition.ts';
import {
  type CheckReport,
  exitCodeOf,
  failedFileReport,
  type FileReport,
  fileReportFrom,
  outcomeOf,
  summarize,
} from './check-report.ts';
import { type CliIo, resolveWorkspace, SetupError, writeAll } from './cli-io.ts';
import { collectFiles } from './collect-files.ts';
import { formatJson } from './format-json.ts';
import { formatSarif } from './format-sarif.ts';
import { displayPath, formatText, plural } from './format-text.ts';
import { INFORMATION_URI, PACKAGE_NAME, PACKAGE_VERSION } from './package-info.ts';
import type { CheckCommand } from './parse-args.ts';
import { bootPrepared, prepareComposition } from './prepare-composition.ts';
import { createProgress } from './progress.ts';

/** Default wait for fresh diagnostics per file. */
export const DEFAULT_WAIT_MS = 20_000;
/** Extra time a single run may take beyond the wait (server start, slow answers). */
const RUN_SLACK_MS = 60_000;
/** The check reports every diagnostic; the plugin's model-facing cap does not apply here. */
const CHECK_MAX_ITEMS = 1_000_000;

/**
 * @param cmd the parsed command
 * @param io streams, environment, working directory
 * @param signal aborts the run (Ctrl-C)
 * @returns the exit code
 * @throws SetupError on setup problems (exit 2)
 */
export async function runCheck(cmd: CheckCommand, io: CliIo, signal?: AbortSignal): Promise<number> {
  const workspace = resolveWorkspace(cmd.workspace, io.cwd);
  const collected = collectFiles(cmd.paths, io.cwd);
  if (collected.missing.length > 0) {
    throw new SetupError(`no such file or directory: ${collected.missing.join(', ')}`);
  }
  const outside = collected.files.find((file) => !isInside(workspace, file));
  if (outside !== undefined) {
    throw new SetupError(`${outside} is outside the workspace ${workspace}; pass --workspace`);
  }
  if (collected.files.length === 0) throw new SetupError(`no files found in ${cmd.paths.join(', ')}`);
  const waitMs = cmd.waitMs ?? DEFAULT_WAIT_MS;
  const prepared = prepareComposition(
    cmd,
    { workspace, sandbox: 'read-only', editor: false, plugin: { diagnosticsWaitMs: waitMs } },
    io,
  );
  const booted = await bootPrepared(prepared, cmd, io);
  try {
    return await checkWith(booted, cmd, io, { workspace, files: collected.files, explicit: collected.explicit, waitMs, signal });
  } finally {
    await booted.dispose();
  }
}

interface CheckPlan {
  workspace: string;
  files: string[];
  explicit: Set<string>;
  waitMs: number;
  signal: AbortSignal | undefined;
}

async function checkWith(booted: BootedComposition, cmd: CheckCommand, io: CliIo, plan: CheckPlan): Promise<number> {
  const api = booted.lspActions();
  if (api === undefined) {
    throw new SetupError('the composition does not provide the lspActions service (is the dsh-lsp-actions row there, with tools, fs and subprocess?)');
  }
  if (api.config.editor.enabled) {
    throw new SetupError('check cannot run a composition with editor.enabled: stdout is the report');
  }
  const handled = plan.files.filter((file) => api.engine.serversFor(file, plan.workspace).length > 0);
  for (const file of plan.files) {
    if (plan.explicit.has(file) && !handled.includes(file)) {
      io.stderr.write(`warning: no language server handles ${displayPath(file, io.cwd)}; skipped\n`);
    }
  }
  if (handled.length === 0) {
    const servers = Object.keys(api.config.servers).join(', ') || 'none';
    throw new SetupError(`no language server handles any of the ${plural(plan.files.length, 'file')} found (servers: ${servers})`);
  }
  const files = await diagnoseAll(api, handled, cmd, io, plan);
  const report: CheckReport = { workspaceRoot: plan.workspace, cwd: io.cwd, severity: cmd.severity, waitMs: plan.waitMs, files };
  const summary = summarize(report);
  const tool = { name: PACKAGE_NAME, version: PACKAGE_VERSION, informationUri: INFORMATION_URI };
  const text =
    cmd.format === 'json'
      ? formatJson(report, summary, tool)
      : cmd.format === 'sarif'
        ? formatSarif(report, summary, tool)
        : formatText(report, summary);
  await writeAll(io.stdout, text);
  if (plan.signal?.aborted) return 130;
  if (summary.notFresh.failed === files.length) {
    io.stderr.write(`error: no file could be checked (${files[0]?.error?.code ?? 'failed'}); see the messages above\n`);
    return 2;
  }
  return exitCodeOf(outcomeOf(summary));
}

async function diagnoseAll(api: LspActionsApi, files: string[], cmd: CheckCommand, io: CliIo, plan: CheckPlan): Promise<FileReport[]> {
  const progress = createProgress(io.stderr, { total: files.length, enabled: cmd.progress });
  const results: FileReport[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const index = next++;
      const file = files[index] as string;
      results[index] = await diagnoseOne(api, file, cmd, plan);
      progress.tick(displayPath(file, io.cwd));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(cmd.jobs, files.length) }, worker));
  } finally {
    progress.done();
  }
  return results;
}

async function diagnoseOne(api: LspActionsApi, file: string, cmd: CheckCommand, plan: CheckPlan): Promise<FileReport> {
  const timeout = AbortSignal.timeout(plan.waitMs + RUN_SLACK_MS);
  const signal = plan.signal ? AbortSignal.any([plan.signal, timeout]) : timeout;
  try {
    const result = await api.runner.run({
      action: 'diagnostics.get',
      // `maxItems`: a check reports everything, whatever cap the composition gives the model tools.
      params: { filePath: file, workspaceRoot: plan.workspace, waitMs: plan.waitMs, maxItems: CHECK_MAX_ITEMS },
      signal,
      toolName: 'dsh-lsp-actions check',
    });
    return fileReportFrom(file, result, cmd.severity);
  } catch (error) {
    return failedFileReport(file, error);
  }
}
