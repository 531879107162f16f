/**
 * Registers the model-facing `lsp_*` tools. Every registration is an effect of the calling
 * fiber: disposing the plugin removes every tool and drops the `changes_only` baselines.
 */
import type { Context } from '@deepseek-ai/cordis';
import type { Agent } from '@deepseek-ai/dsh-agent';
import type { ToolDefinition } from '@deepseek-ai/dsh-tools';
import type { ActionRunner } from '../actions/action-runner.ts';
import type { Config } from '../config.ts';
import type { WriteAuthorizer } from '../permission/write-authorizer-types.ts';
import { DiagnosticsMemory } from './diagnostics-memory.ts';
import { lspCodeActionTool } from './lsp-code-action-tool.ts';
import { lspCompletionTool } from './lsp-completion-tool.ts';
import { lspDiagnosticsTool, type DiagnosticsToolDeps } from './lsp-diagnostics-tool.ts';
import { lspFormatTool } from './lsp-format-tool.ts';
import { lspInlayHintsTool } from './lsp-inlay-hints-tool.ts';
import { lspOrganizeImportsTool } from './lsp-organize-imports-tool.ts';
import { lspRenameTool } from './lsp-rename-tool.ts';
import { lspSignatureTool } from './lsp-signature-tool.ts';
import { lspSymbolsTool } from './lsp-symbols-tool.ts';
import { buildNavigationTools } from './navigation-tools.ts';
import { workspaceFileLister } from './workspace-files.ts';

/** Tool names, in registration order. */
export const LSP_TOOL_NAMES = [
  'lsp_diagnostics',
  'lsp_format',
  'lsp_completion',
  'lsp_code_action',
  'lsp_organize_imports',
  'lsp_rename',
  'lsp_symbols',
  'lsp_signature',
  'lsp_inlay_hints',
] as const;

/**
 * Builds every tool definition. Escalation parameters are advertised on the write tools only
 * when `deps.authorizer.canEscalate` (the fs backend confines writes), evaluated here, once.
 * The navigation tools (`NAVIGATION_TOOL_NAMES`, docs/navigation.md) follow, unless
 * `config.navigation` is false.
 * @param deps runner, authorizer, config, and the workspace file lister
 * @param memory baselines for `lsp_diagnostics` `changes_only`
 * @returns the definitions, in {@link LSP_TOOL_NAMES} order, then the navigation tools
 */
export function buildLspTools(deps: DiagnosticsToolDeps, memory: DiagnosticsMemory): ToolDefinition[] {
  const escalate = deps.authorizer.canEscalate;
  return [
    lspDiagnosticsTool(deps, memory),
    lspFormatTool(deps, escalate),
    lspCompletionTool(deps),
    lspCodeActionTool(deps, escalate),
    lspOrganizeImportsTool(deps, escalate),
    lspRenameTool(deps, escalate),
    lspSymbolsTool(deps),
    lspSignatureTool(deps),
    lspInlayHintsTool(deps),
    ...(deps.config.navigation ? buildNavigationTools(deps) : []),
  ];
}

/**
 * Registers the `lsp_*` tools on `ctx.tools`.
 * @param ctx cordis context with the `tools` service
 * @param deps the action runner, the write authorizer and the plugin config
 * @param memory the `changes_only` baselines, when shared with another feature (edit feedback); default: a new one
 */
export function registerLspTools(
  ctx: Context,
  deps: { runner: ActionRunner; authorizer: WriteAuthorizer; config: Config },
  // One (session, file) baseline per document the engine may keep open.
  memory = new DiagnosticsMemory(deps.config.maxOpenDocuments),
): void {
  ctx.effect(() => () => memory.clear(), 'lsp-actions:diagnostics-memory');
  ctx.on('agent/disposed', ({ agent }: { agent: Agent }) => memory.forgetSession(String(agent.id)));
  // The harness fs, when mounted, is how a workspace check finds the source files.
  const fs = ctx.get('fs');
  const listWorkspaceFiles = fs ? workspaceFileLister(fs, deps.config.servers) : undefined;
  for (const tool of buildLspTools({ ...deps, ...(listWorkspaceFiles ? { listWorkspaceFiles } : {}) }, memory)) ctx.tools.register(tool);
}
