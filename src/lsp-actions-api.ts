import type { ActionRegistry } from './actions/action-registry.ts';
import type { ActionRunner } from './actions/action-runner.ts';
import type { Config } from './config.ts';
import type { LspEngineApi } from './lsp/engine-types.ts';

/**
 * What the plugin provides as the cordis service `lspActions`: the one action runner every
 * face uses, the engine behind it, the catalog, and the effective config. The CLI and other
 * plugins in the same composition read it with `ctx.get('lspActions')`.
 */
export interface LspActionsApi {
  runner: ActionRunner;
  engine: LspEngineApi;
  registry: ActionRegistry;
  config: Config;
}

declare module '@deepseek-ai/cordis' {
  interface Context {
    lspActions: LspActionsApi;
  }
}
