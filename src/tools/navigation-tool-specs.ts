/**
 * The navigation tools as data (issue 22): name, action, read-only flag, description sent to the
 * model, parameter schema, how the model's arguments become the action's wire params, and how
 * the action's result is rendered. `navigation-tools.ts` turns each spec into a harness tool; any
 * other face (an MCP server) can list the same specs and run the same actions.
 */
import type { ParameterSchemaSpec } from '@deepseek-ai/dsh-tools';
import type { BuiltinActionId, CallHierarchyGetResult, HoverGetResult, LocationsResult, SymbolsGetResult } from '../actions/action-results.ts';
import { ActionError } from '../errors.ts';
import { renderCallHierarchy, renderHover, renderLocations, renderWorkspaceSymbols, type WithRoot } from './navigation-render.ts';
import { toWirePath, toWirePosition } from './tool-args.ts';

/** The arguments every navigation tool may receive. */
export interface NavigationArgs {
  file_path?: string;
  line?: number;
  character?: number;
  symbol?: string;
  direction?: string;
  query?: string;
}

/** Where to ask, in wire form (without `workspaceRoot`). */
export type TargetParams =
  | { filePath: string; position: { line: number; character: number }; nearest: true }
  | { symbol: string; filePath?: string; anchorPaths?: string[] };

/** What a spec's `params` is given besides the arguments. */
export interface ParamsContext {
  /** Where to ask (addressed tools). */
  target?: TargetParams;
  /** A source file to open before a workspace search (name searches). */
  anchor?: string;
  /** Config `maxItems`. */
  maxItems: number;
}

/** One navigation tool, as data. */
export interface NavigationToolSpec {
  /** Tool name, e.g. `lsp_definition`. */
  name: string;
  /** The registry action it runs. */
  action: BuiltinActionId;
  /** Always false: navigation never changes files (the harness may run these concurrently). */
  writes: false;
  /** Verbatim description sent to the model. */
  description: string;
  /** The model-facing parameter schema. */
  parameters: ParameterSchemaSpec;
  /** Whether the tool addresses a symbol (position or name) rather than a search query. */
  addressed: boolean;
  /** The result `kind` of the action (output schema). */
  resultKind: string;
  /**
   * @param args validated model arguments
   * @param at where to ask (addressed tools, already converted), the search anchor file (name
   *   searches), and config `maxItems`
   * @returns the action's wire params without `workspaceRoot`
   */
  params(args: NavigationArgs, at: ParamsContext): Record<string, unknown>;
  /**
   * @param value the action's result plus `workspaceRoot`
   * @param maxChars `maxResultChars`
   * @returns the model-facing text
   */
  render(value: WithRoot<never>, maxChars: number): string;
  /** Card title for a call. */
  title(args: NavigationArgs): string;
}

/** `file_path` + one-based `line`/`character`, or `symbol`: the addressing shared by the navigation tools. */
export const TARGET_PARAMS = {
  file_path: {
    type: 'string',
    description: 'The file, relative to the workspace or absolute. Needed with line and character; with symbol it narrows the search to that file.',
  },
  line: { type: 'integer', description: 'One-based line of the symbol.' },
  character: {
    type: 'integer',
    description: "One-based column on the symbol's name. A column beside a name (or on a keyword) uses the nearest name on that line, and the answer says which.",
  },
  symbol: {
    type: 'string',
    description: 'Instead of line and character: the symbol by name, optionally qualified by its container, e.g. "Cart.total" or "formatPrice".',
  },
} as const;

/**
 * @param args the model's arguments
 * @param root workspace root
 * @returns the wire target: a position to snap to the nearest name, or a symbol
 * @throws ActionError `LSP_ACTION_INVALID_ARGS` when neither (or both) is given
 */
export function toTargetParams(args: NavigationArgs, root: string): TargetParams {
  const symbol = args.symbol?.trim();
  const hasPosition = args.line !== undefined || args.character !== undefined;
  if (symbol !== undefined && symbol !== '') {
    if (hasPosition) throw new ActionError('LSP_ACTION_INVALID_ARGS', 'give symbol, or file_path with line and character — not both');
    return args.file_path === undefined ? { symbol } : { symbol, filePath: toWirePath(root, args.file_path) };
  }
  if (args.file_path === undefined || args.line === undefined || args.character === undefined) {
    throw new ActionError('LSP_ACTION_INVALID_ARGS', 'give file_path with one-based line and character, or symbol (e.g. "Cart.total")');
  }
  return { filePath: toWirePath(root, args.file_path), position: toWirePosition(args.line, args.character), nearest: true };
}

/** `symbol` or `file_path:line:col`, for card titles. */
function where(args: NavigationArgs): string {
  if (args.symbol) return args.file_path ? `${args.symbol} in ${args.file_path}` : args.symbol;
  return `${args.file_path ?? ''}${typeof args.line === 'number' ? `:${args.line}` : ''}${typeof args.character === 'number' ? `:${args.character}` : ''}`;
}

const locations = (value: WithRoot<never>, maxChars: number): string => renderLocations(value as WithRoot<LocationsResult>, maxChars);

/** The navigation tools, in registration order. */
export const NAVIGATION_TOOL_SPECS: readonly NavigationToolSpec[] = [
  {
    name: 'lsp_definition',
    action: 'definition.get',
    writes: false,
    description:
      "Go to definition: where a symbol is defined, as path, one-based line:col and the source line. Address it by file_path + line + character, or by symbol name (\"Cart.total\"). Answers for the files as they are on disk now.",
    parameters: TARGET_PARAMS,
    addressed: true,
    resultKind: 'definition',
    params: (_args, { target, maxItems }) => ({ ...target, maxItems, withSource: true }),
    render: locations,
    title: (args) => `Definition of ${where(args)}`,
  },
  {
    name: 'lsp_references',
    action: 'references.get',
    writes: false,
    description:
      'Find every reference to a symbol across the workspace, grouped by file, each with one-based line:col and its source line, the declaration marked. Address it by file_path + line + character, or by symbol name ("Cart.total"). Answers for the files as they are on disk now.',
    parameters: TARGET_PARAMS,
    addressed: true,
    resultKind: 'references',
    params: (_args, { target, maxItems }) => ({ ...target, maxItems, withSource: true, includeDeclaration: true, markDeclarations: true }),
    render: locations,
    title: (args) => `References to ${where(args)}`,
  },
  {
    name: 'lsp_hover',
    action: 'hover.get',
    writes: false,
    description:
      'Type and documentation of a symbol: its signature and the first paragraph of its docs. Address it by file_path + line + character, or by symbol name ("Cart.total").',
    parameters: TARGET_PARAMS,
    addressed: true,
    resultKind: 'hover',
    params: (_args, { target }) => ({ ...target }),
    render: (value, maxChars) => renderHover(value as WithRoot<HoverGetResult>, maxChars),
    title: (args) => `Hover ${where(args)}`,
  },
  {
    name: 'lsp_implementation',
    action: 'implementation.get',
    writes: false,
    description:
      'Go to implementation: the classes or methods that implement an interface, abstract member or type, with one-based line:col and source lines. Address it by file_path + line + character, or by symbol name ("Shape.area").',
    parameters: TARGET_PARAMS,
    addressed: true,
    resultKind: 'implementation',
    params: (_args, { target, maxItems }) => ({ ...target, maxItems, withSource: true }),
    render: locations,
    title: (args) => `Implementations of ${where(args)}`,
  },
  {
    name: 'lsp_call_hierarchy',
    action: 'callHierarchy.get',
    writes: false,
    description:
      'Call hierarchy of a function or method: every call site that calls it (direction "incoming", the default) or every call it makes ("outgoing"), with one-based line:col, the source line and the caller or callee. Address it by file_path + line + character, or by symbol name.',
    parameters: {
      ...TARGET_PARAMS,
      direction: { type: 'string', enum: ['incoming', 'outgoing'], description: '"incoming": who calls it (default); "outgoing": what it calls.' },
    },
    addressed: true,
    resultKind: 'callHierarchy',
    params: (args, { target, maxItems }) => ({ ...target, direction: args.direction ?? 'incoming', maxItems, withSource: true }),
    render: (value, maxChars) => renderCallHierarchy(value as WithRoot<CallHierarchyGetResult>, maxChars),
    title: (args) => `${args.direction === 'outgoing' ? 'Calls from' : 'Calls to'} ${where(args)}`,
  },
  {
    name: 'lsp_workspace_symbols',
    action: 'symbols.get',
    writes: false,
    description:
      'Search symbol names across the workspace (classes, functions, methods, variables): kind, name, container and path:line:col (one-based) of each match.',
    parameters: {
      query: { type: 'string', required: true, description: 'The name, or part of it, to search for.' },
    },
    addressed: false,
    resultKind: 'symbols',
    params: (args, { anchor, maxItems }) => ({ query: args.query?.trim() ?? '', maxItems, ...(anchor === undefined ? {} : { filePath: anchor }) }),
    render: (value, maxChars) => renderWorkspaceSymbols(value as WithRoot<SymbolsGetResult>, maxChars),
    title: (args) => `Symbols matching "${args.query ?? ''}"`,
  },
];
