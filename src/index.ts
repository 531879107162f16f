/**
 * dsh-lsp-actions: real language-server feedback for DeepSeek Harness agents and editors.
 *
 * A cordis namespace plugin (`name`, `inject`, `Config`, `apply`; no default export). `apply`
 * only wires: engine (warm servers, persistent documents) → write path and permission gate →
 * one action registry → the faces (model tools with edit feedback on agent writes; the editor
 * protocol when `editor.enabled`).
 */
import type { Context } from '@deepseek-ai/cordis';
import { ActionRegistry } from './actions/action-registry.ts';
import { ActionRunner } from './actions/action-runner.ts';
import { BUILTIN_ACTIONS } from './actions/builtin-actions.ts';
import type { Config } from './config.ts';
import { FsWorkspaceWriter } from './edits/workspace-writer.ts';
import { drainWrites } from './edits/write-drain.ts';
import { startEditorBackend } from './editor/start-editor-backend.ts';
import { startEditFeedback, type EditFeedbackHooks } from './feedback/edit-feedback.ts';
import type { WorkspaceWriter } from './edits/write-types.ts';
import type { WorkspaceWatch } from './lsp/engine-types.ts';
import type { LspActionsApi } from './lsp-actions-api.ts';
import { LspEngine, resolveServerExecutablesLeniently } from './lsp/lsp-engine.ts';
import { SandboxWriteAuthorizer } from './permission/sandbox-write-authorizer.ts';
import { withEmbeddedServers } from './presets/embedded-typescript.ts';
import { DiagnosticsMemory } from './tools/diagnostics-memory.ts';
import { registerLspTools } from './tools/register-lsp-tools.ts';

export { Config } from './config.ts';
export type { LspActionsApi } from './lsp-actions-api.ts';
export { ActionError, ACTION_ERROR_CODES, type ActionErrorCode } from './errors.ts';

/** Plugin name (cordis). */
export const name = 'dsh-lsp-actions';

/** Required services; `agents`, `sandboxPolicy`, `approval` and `loader` are read with `ctx.get` when present. */
export const inject = ['tools', 'fs', 'subprocess'];

/**
 * Wires the plugin. Every registration is an effect of this fiber: disposing the plugin
 * removes every tool, releases stdio and stops every language server.
 * @param ctx cordis context with `tools`, `fs`, `subprocess`
 * @param config validated {@link Config}
 */
export async function apply(ctx: Context, rawConfig: Config): Promise<void> {
  const config: Config = { ...rawConfig, servers: withEmbeddedServers(rawConfig) };
  const logger = ctx.logger('lsp-actions');
  // a default server this execution world cannot run leaves the plugin loaded: requests routed to
  // it answer with what is missing; a server the user configured still fails the load, naming the key
  const defaults = new Set(Object.keys(config.servers).filter((id) => !(id in rawConfig.servers)));
  const { executables, unavailable } = await resolveServerExecutablesLeniently(config, ctx.subprocess, defaults);
  for (const error of unavailable.values()) logger.warn(error.message);
  // node:fs is loaded only for hosts that said their files are the local disk (serve, check), or
  // for edit feedback, which watches a root only where the harness fs shows it as this machine's disk
  let feedback: EditFeedbackHooks | undefined;
  const watchForFeedback = !config.watchWorkspace && config.editFeedback.enabled && config.editFeedback.watchChanges;
  const inner = config.watchWorkspace
    ? (await import('./documents/node-workspace-watcher.ts')).nodeWorkspaceWatch({ takePrestarted: true })
    : watchForFeedback
      ? (await import('./feedback/local-disk-watch.ts')).localDiskWatch(ctx.fs, (message) => logger.debug(message), () => feedback?.watchStarted())
      : undefined;
  const watch: WorkspaceWatch | undefined =
    inner === undefined
      ? undefined
      : (root, onChange, hooks) => {
          if (config.watchWorkspace) feedback?.watchStarted();
          // the hooks carry a failed watcher's sweep to the engine: never drop them (a dead watcher
          // must not yield fresh)
          return inner(root, (changes) => (feedback?.watched(changes), onChange(changes)), hooks);
        };
  const engine = new LspEngine({
    config,
    subprocess: ctx.subprocess,
    fs: ctx.fs,
    executables,
    unavailable,
    ...(watch === undefined ? {} : { watch }),
    log: (level, message) => logger[level](message),
  });
  // a write in progress commits or rolls back before the servers go away
  ctx.effect(() => async () => {
    await drainWrites();
    await engine.dispose();
  }, 'lsp-actions:engine');

  const registry = new ActionRegistry();
  for (const action of BUILTIN_ACTIONS) registry.register(action);
  const authorizer = new SandboxWriteAuthorizer(ctx);
  const fsWriter = new FsWorkspaceWriter(ctx, ctx.fs);
  // our write tools' writes reach edit feedback even when no fs/observed is emitted (a file the agent had not read)
  const writer: WorkspaceWriter = {
    prepare: (root) => fsWriter.prepare(root),
    apply: async (request) => {
      const result = await fsWriter.apply(request);
      feedback?.written(request.actor, result.files.map((f) => f.path));
      return result;
    },
  };
  const runner = new ActionRunner(registry, { engine, writer, config }, authorizer, ctx.fs);

  // `changes_only` baselines, shared with edit feedback: a verdict the model saw is its latest check
  const memory = new DiagnosticsMemory(config.maxOpenDocuments);
  registerLspTools(ctx, { runner, authorizer, config }, memory);
  feedback = startEditFeedback(ctx, { runner, engine, config, memory, log: (level, message) => logger[level](message) });
  const api: LspActionsApi = { runner, engine, registry, config, ...(feedback ? { verdictFor: feedback.verdictFor, warmedUp: feedback.warmedUp, warmUp: feedback.warmUp } : {}) };
  let editorClosed: ((why: 'eof' | 'output-closed') => void) | undefined;
  if (config.editor.enabled) api.editorClosed = new Promise((resolve) => (editorClosed = resolve));
  ctx.provide('lspActions', api);

  if (config.editor.enabled) {
    ctx.effect(
      () => startEditorBackend(ctx, { runner, engine, config: config.editor, onClose: (why) => editorClosed?.(why) }),
      'lsp-actions:editor',
    );
  }
}
