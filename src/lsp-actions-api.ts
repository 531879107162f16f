import type { ActionRegistry } from './actions/action-registry.ts';
import type { ActionRunner } from './actions/action-runner.ts';
import type { Config } from './config.ts';
import type { EditVerdict } from './feedback/edit-verdict.ts';
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
  /**
   * Present when the editor backend serves stdio (`editor.enabled`): settles once its input
   * ended and every accepted request was answered and flushed (`eof`), or its output's reader
   * went away (`output-closed`). The `serve` command stops on it.
   */
  editorClosed?: Promise<'eof' | 'output-closed'>;
  /**
   * Present when edit feedback is enabled: the verdict on files a caller changed on disk (and on
   * everything still unjudged under `root`), for faces that are not DSH tool calls (an MCP
   * server); render it with `renderVerdict` (src/feedback/verdict-render.ts).
   */
  verdictFor?: (root: string, changed: readonly string[], signal: AbortSignal, created?: ReadonlySet<string>) => Promise<EditVerdict | undefined>;
  /** Present with `verdictFor`: settles when the project warm-up a session started for `root` is over. */
  warmedUp?: (root: string) => Promise<void>;
  /** Present with `verdictFor`: starts the warm-up of `root` for a face with no agent session (an MCP server). */
  warmUp?: (root: string, seed?: string) => void;
}

declare module '@deepseek-ai/cordis' {
  interface Context {
    lspActions: LspActionsApi;
  }
}
