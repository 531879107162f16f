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
import { startEditFeedback } from './feedback/edit-feedback.ts';
import type { LspActionsApi } from './lsp-actions-api.ts';
import { LspEngine, resolveServerExecutables } from './lsp/lsp-engine.ts';
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
  const executables = await resolveServerExecutables(config, ctx.subprocess);
  const logger = ctx.logger('lsp-actions');
  // node:fs is loaded only for hosts that said their files are the local disk (serve, check)
  const watch = config.watchWorkspace ? (await import('./documents/node-workspace-watcher.ts')).nodeWorkspaceWatch() : undefined;
  const engine = new LspEngine({
    config,
    subprocess: ctx.subprocess,
    fs: ctx.fs,
    executables,
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
  const writer = new FsWorkspaceWriter(ctx, ctx.fs);
  const runner = new ActionRunner(registry, { engine, writer, config }, authorizer, ctx.fs);

  // `changes_only` baselines, shared with edit feedback: a verdict the model saw is its latest check
  const memory = new DiagnosticsMemory(config.maxOpenDocuments);
  registerLspTools(ctx, { runner, authorizer, config }, memory);
  startEditFeedback(ctx, { runner, engine, config, memory, log: (level, message) => logger[level](message) });
  const api: LspActionsApi = { runner, engine, registry, config };
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
