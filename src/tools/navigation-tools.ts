/**
 * Harness tools from {@link NAVIGATION_TOOL_SPECS}: one builder for all six, so every navigation
 * tool takes its arguments, runs its action and renders its answer the same way. Read-only and
 * concurrency-safe; no escalation parameters.
 */
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools';
import type { WireLocation } from '../actions/action-results.ts';
import { ActionError } from '../errors.ts';
import { asJson, callCard, searchMeta, searchResultView, type SearchMeta } from './cards.ts';
import { displayPath } from './locations.ts';
import { symbolsSearchMeta, type SymbolsToolValue } from './lsp-symbols-tool.ts';
import { NAVIGATION_TOOL_SPECS, toTargetParams, type NavigationArgs, type NavigationToolSpec, type TargetParams } from './navigation-tool-specs.ts';
import type { WithRoot } from './navigation-render.ts';
import { runToolAction, sessionRoot, type LspToolDeps } from './run-tool-action.ts';
import { fromStructured, ROOT_FIELD, structured } from './structured.ts';
import type { WorkspaceFileLister } from './workspace-files.ts';

/** Files offered as anchors for a workspace symbol search (one per server is used). */
const ANCHOR_FILES = 32;

/** Tool names, in registration order. */
export const NAVIGATION_TOOL_NAMES: readonly string[] = NAVIGATION_TOOL_SPECS.map((spec) => spec.name);

/** What the builder needs: the runner, config, and (for name searches) the workspace lister. */
export type NavigationToolDeps = LspToolDeps & { listWorkspaceFiles?: WorkspaceFileLister };

/**
 * @param deps runner, config, workspace lister
 * @returns every navigation tool, in spec order
 */
export function buildNavigationTools(deps: NavigationToolDeps): ToolDefinition[] {
  return NAVIGATION_TOOL_SPECS.map((spec) => navigationTool(spec, deps));
}

/**
 * @param spec one navigation tool as data
 * @param deps runner, config, workspace lister
 * @returns the harness tool
 */
export function navigationTool(spec: NavigationToolSpec, deps: NavigationToolDeps): ToolDefinition {
  const { config } = deps;
  return defineTool({
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    output: {
      schema: {
        type: 'object',
        additionalProperties: true,
        description: `The ${spec.action} result (zero-based UTF-16 positions; paths workspace-relative).`,
        properties: {
          kind: { type: 'string', const: spec.resultKind, required: true },
          ...ROOT_FIELD,
        },
      },
      render: (_args, value) => [{ type: 'text', text: spec.render(fromStructured<WithRoot<never>>(value), config.maxResultChars) }],
      presentationMeta: (_args, value) => {
        const meta = navigationSearchMeta(fromStructured<Record<string, unknown> & { workspaceRoot: string }>(value));
        return meta === undefined ? null : asJson(meta);
      },
    },
    timeoutMs: config.timeoutMs,
    isConcurrencySafe: () => true,
    async execute(rawArgs, exec) {
      const args = rawArgs as NavigationArgs;
      const root = sessionRoot(exec);
      let target: TargetParams | undefined;
      let anchor: string | undefined;
      if (spec.addressed) {
        target = toTargetParams(args, root);
        if ('symbol' in target && target.filePath === undefined && deps.listWorkspaceFiles) {
          const { files } = await deps.listWorkspaceFiles(root, ANCHOR_FILES, exec.signal);
          if (files.length > 0) target = { ...target, anchorPaths: files };
        }
      } else {
        if ((args.query?.trim() ?? '') === '') throw new ActionError('LSP_ACTION_INVALID_ARGS', 'query is empty; give part of a symbol name');
        // servers such as typescript-language-server only index once a file is open
        anchor = deps.listWorkspaceFiles ? (await deps.listWorkspaceFiles(root, 1, exec.signal)).files[0] : undefined;
      }
      const params = spec.params(args, { ...(target ? { target } : {}), ...(anchor ? { anchor } : {}), maxItems: config.maxItems });
      const result = await runToolAction(deps, exec, { action: spec.action, params: params as never }, root);
      return structured({ ...(result as object), workspaceRoot: root }) as never;
    },
    presentCall: (rawArgs) => {
      const args = rawArgs as NavigationArgs;
      const paths = args.file_path === undefined ? [] : [{ path: args.file_path, ...(typeof args.line === 'number' ? { line: args.line } : {}) }];
      return callCard(spec.title(args), 'search', paths);
    },
    presentResult: (args, result) => searchResultView(spec.title(args as NavigationArgs), result),
  });
}

/**
 * @param value a navigation result plus its workspace root
 * @returns a search card's meta: listed places (locations, call sites, symbols) by file and line; undefined for hover
 */
export function navigationSearchMeta(value: Record<string, unknown> & { workspaceRoot: string }): SearchMeta | undefined {
  const root = value.workspaceRoot;
  const places = (value.locations ?? value.calls) as WireLocation[] | undefined;
  if (Array.isArray(places)) {
    return searchMeta(
      places.map((p) => [displayPath(root, p.filePath), p.range.start.line + 1, (p.lineText ?? '').trim()] as const),
      value.truncated === true,
      typeof value.total === 'number' ? value.total : places.length,
    );
  }
  if (value.kind === 'symbols') return symbolsSearchMeta(value as unknown as SymbolsToolValue);
  return undefined;
}
