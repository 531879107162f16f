/**
 * `dsh-lsp-actions check [PATH…]`: boots the same composition as `serve` in-process (editor
 * off, sandbox read-only: checking never writes), plans the compiler's file set
 * (check-file-set.ts), asks the engine for the files' diagnostics (check-run.ts), and prints the
 * report in the requested format.
 *
 * This file is what runs before the boot, and it loads only what that needs: on TypeScript 7 the
 * plan and the server are started before the composition boots (decisions 0112, 0113), so the
 * modules of everything after the boot load beside the boot, not before the plan.
 *
 * TypeScript: the workspace's own TypeScript when usable (workspace-typescript.ts), one server
 * process per tsconfig program (the server's root is the nearest directory with a tsconfig.json
 * or jsconfig.json, not every folder with a package.json), program by program: one live at a time,
 * stopped when its program is checked (check-by-program.ts). Exit codes: see `exitCodeOf`
 * (check-report.ts), 2 for setup problems, 128 + signal when interrupted.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isLexicallyInside } from '../workspace-containment.ts';
import { EMBEDDED_TYPESCRIPT_ID } from '../presets/embedded-typescript.ts';
import { nativeTypeScriptServer } from '../presets/native-typescript.ts';
import { ServerRouter } from '../lsp/server-routing.ts';
import type { BootedComposition } from './boot-composition.ts';
import type { CheckPlan } from './check-run.ts';
import { checkTimeline } from './check-timeline.ts';
import { type CliIo, resolveWorkspace, SetupError, stderrLog } from './cli-io.ts';
import type { EarlyServer } from './early-typescript-server.ts';
import { type EarlyPlan, startEarlyPlan } from './early-plan.ts';
import { displayPath } from './format-text.ts';
import { batchGoGc } from './go-runtime-env.ts';
import type { ProgramLister } from './native-program-listing.ts';
import type { CheckCommand } from './parse-args.ts';
import { bootPrepared, prepareComposition } from './prepare-composition.ts';
import { signaturePluginProbe } from './signature-plugin-probe.ts';
import { solutionReferencesFile } from './solution-references-map.ts';
import { PROGRAM_ROOT_MARKERS, typeScriptAnchor } from './typescript-anchor.ts';
import { untilOrAfter } from './until-or-after.ts';
import { chooseTypeScript, nativeCommand, type TypeScriptChoice } from './workspace-typescript.ts';

/** Default wait for fresh diagnostics per file. */
export const DEFAULT_WAIT_MS = 20_000;

/**
 * @param cmd the parsed command
 * @param io streams, environment, working directory
 * @param signal aborts the run (SIGINT/SIGTERM, with an `Interrupted` reason)
 * @returns the exit code
 * @throws SetupError on setup problems (exit 2)
 */
export async function runCheck(cmd: CheckCommand, io: CliIo, signal?: AbortSignal): Promise<number> {
  const timeline = checkTimeline(io.env, io.stderr);
  timeline.mark('cli loaded');
  const workspace = resolveWorkspace(cmd.workspace, io.cwd);
  const missing = cmd.paths.filter((given) => !existsSync(resolve(io.cwd, given)));
  if (missing.length > 0) throw new SetupError(`no such file or directory: ${missing.join(', ')}`);
  const outside = cmd.paths.map((given) => resolve(io.cwd, given)).find((path) => !isLexicallyInside(workspace, path));
  if (outside !== undefined) throw new SetupError(`${outside} is outside the workspace ${workspace}; pass --workspace`);
  let choice: TypeScriptChoice;
  try {
    choice = chooseTypeScript(workspace, cmd.typescript, io.cwd);
  } catch (error) {
    throw new SetupError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  const waitMs = cmd.waitMs ?? DEFAULT_WAIT_MS;
  const native = choice.kind === 'native' ? nativeCommand(choice.serverPath) : undefined;
  // tsserver reads the projects `tsc -b` builds before a program from source (decision 0108).
  const solution = native === undefined ? solutionReferencesFile() : undefined;
  // `--watch`: tsserver answers declaration signatures (tsc's builder rule for importers, decision 0109).
  const signatures = native === undefined && cmd.watch ? signaturePluginProbe() : undefined;
  // the temp files above are removed at dispose; a setup that fails before it removes them here
  let early: EarlyPlan | undefined;
  let earlyServer: EarlyServer | undefined;
  let running: Promise<typeof import('./check-run.ts')> | undefined;
  let giveLister: ((lister: ProgramLister | undefined) => void) | undefined;
  let booted: BootedComposition;
  try {
    const tsserverOptions = { tsserver: { path: choice.serverPath }, ...(signatures === undefined ? {} : { plugins: [signatures.plugin] }) };
    const prepared = prepareComposition(
      cmd,
      {
        workspace,
        sandbox: 'read-only',
        editor: false,
        plugin: { diagnosticsWaitMs: waitMs },
        directTsserver: true,
        ...(native === undefined
          ? { serverDefaults: { [EMBEDDED_TYPESCRIPT_ID]: { rootMarkers: PROGRAM_ROOT_MARKERS, initializationOptions: tsserverOptions, ...(solution === undefined ? {} : { env: solution.env }) } } }
          : // `--watch` keeps its server for hours: Go's own pace there, as for `serve`
            { typescriptServer: { ...nativeTypeScriptServer(native.command, native.args, PROGRAM_ROOT_MARKERS), env: cmd.watch ? {} : batchGoGc(io.env) } }),
      },
      io,
    );
    // TypeScript 7's plan (its tsc's listing) runs while the composition boots (early-plan.ts):
    // started first, and the boot only once the listing is under way (decision 0112).
    let boot: ((booting: Promise<BootedComposition>) => void) | undefined;
    const later = new Promise<BootedComposition>((settle) => (boot = settle));
    // the program's listing from the early server, when there is one (decision 0114): settled before the boot
    const lister = new Promise<ProgramLister | undefined>((settle) => (giveLister = settle));
    early = prepared.source.kind === 'entries' && choice.kind === 'native' ? startEarlyPlan({ cmd, cwd: io.cwd, workspace, choice, signal, lister }, later) : undefined;
    const headStarted = early !== undefined && (await untilOrAfter(early.started, EARLY_PLAN_HEAD_START_MS));
    // and its server, with the project's load asked for, before the boot too (decision 0113);
    // the walk is done once the plan has started (its listing comes after it)
    const entry = prepared.servers?.[EMBEDDED_TYPESCRIPT_ID];
    const walked = headStarted && native !== undefined && entry?.command === native.command && signal?.aborted !== true ? await early?.walked(choice) : undefined;
    if (walked !== undefined && entry !== undefined && prepared.servers !== undefined) {
      const router = new ServerRouter(prepared.servers);
      const isTypeScriptFile = (path: string): boolean => router.route(path, workspace).some((r) => r.serverId === EMBEDDED_TYPESCRIPT_ID);
      const anchor = typeScriptAnchor(cmd, io.cwd, workspace, isTypeScriptFile);
      if (anchor !== undefined) {
        // imported here: the walk and the listing start before the server's modules load
        const { EARLY_SERVER_HEAD_START_MS, startEarlyServer } = await import('./early-typescript-server.ts');
        earlyServer = await startEarlyServer({ entry, anchor, walked, workspace, rootMarkers: PROGRAM_ROOT_MARKERS, isTypeScriptFile, waitMs, log: stderrLog(io.stderr, cmd.logLevel, 'lsp-actions') });
        giveLister?.(earlyServer?.listProgram);
        if (earlyServer !== undefined) await untilOrAfter(earlyServer.loadAsked, EARLY_SERVER_HEAD_START_MS);
      }
    }
    giveLister?.(undefined);
    const booting = bootPrepared(prepared, cmd, io);
    boot?.(booting);
    // what runs after the boot is loaded beside it: none of it is needed before (the early plan, the early server)
    running = import('./check-run.ts');
    running.catch(() => undefined);
    booted = await booting;
  } catch (error) {
    giveLister?.(undefined);
    await earlyServer?.dispose();
    solution?.dispose();
    signatures?.dispose();
    throw error;
  }
  timeline.mark('composition booted');
  // said once per root, for the whole command (`--watch` checks many times): a check whose
  // watcher failed still judges exactly (stat sweeps), but slower
  booted.lspActions()?.engine.onWatchDegraded?.((event) => {
    const how = event.fallback === 'sweep' ? 'changes made during the check are found by stat sweeps instead' : 'results there are reported stale';
    io.stderr.write(`warning: watching ${displayPath(event.root, io.cwd)} is degraded (${event.reason}); ${how}\n`);
  });
  try {
    const plan: CheckPlan = {
      workspace,
      waitMs,
      signal,
      choice,
      timeline,
      ...(early === undefined ? {} : { early }),
      ...(earlyServer === undefined ? {} : { earlyServer }),
      ...(solution === undefined ? {} : { solution }),
    };
    const { checkWith, watchWith } = await (running ?? import('./check-run.ts'));
    return await (cmd.watch ? watchWith : checkWith)(booted, cmd, io, plan);
  } finally {
    try {
      await booted.dispose();
    } finally {
      await earlyServer?.dispose();
      timeline.mark('disposed');
      solution?.dispose();
      signatures?.dispose();
    }
  }
}

/**
 * The longest the boot waits for the early plan to start its listing: the walk is a few ms on a
 * usual repository; a git or a tree slow beyond this overlaps the boot as before.
 */
const EARLY_PLAN_HEAD_START_MS = 200;
