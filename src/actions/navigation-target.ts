/**
 * Where a navigation action asks (issue 22): a position as given, a position snapped to the
 * nearest name on its line (`nearest`), or a symbol named by `symbol` (`Cart.total`), resolved
 * through the file's outline when `filePath` is given, else through a workspace symbol search.
 * The answer always names what was used; a name that matches nothing, or several declarations,
 * is `LSP_ACTION_NO_SYMBOL` listing the candidates.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { abortError, ActionError } from '../errors.ts';
import type { Position, SymbolNode } from '../lsp/engine-types.ts';
import type { ActionInvocation, ActionServices } from './action-definition.ts';
import { ActionParams, invalid } from './action-params.ts';
import { identifiersOnLine, snapToIdentifier, splitLines } from './identifier-at.ts';
import { resolveFileTarget, resolveInsideRoot, wirePath, type FileTarget } from './file-target.ts';
import { matchInOutline, matchInSearch, normalizeName, parseSymbolPath, uniqueMatches, type SymbolMatch, type SymbolPath } from './symbol-path.ts';

/** How a navigation request names its target (wire params). */
export interface NavigationTargetParams {
  workspaceRoot: string;
  /** The file (required with `position`; with `symbol`, narrows the search to this file). */
  filePath?: string;
  position?: Position;
  /** A symbol by name, e.g. `Cart.total`, instead of a position. */
  symbol?: string;
  /** Snap a position that is not on a name to the nearest name on its line (else: used as given). */
  nearest?: boolean;
  /** Files a workspace symbol search may be asked through (one per server is used). */
  anchorPaths?: string[];
  text?: string;
}

/** Where the request was asked, for the result. */
export interface ResolvedTarget {
  file: FileTarget;
  position: Position;
  /** The name at that position, when known. */
  name?: string;
  /** What was done to get there (a snapped position, a resolved symbol). */
  note?: string;
}

/** Declarations listed at most in an ambiguity error. */
const MAX_CANDIDATES = 10;

/**
 * @param p the params reader
 * @returns the target fields, validated: `symbol`, or `filePath` + `position`
 */
export function readNavigationTarget(p: ActionParams): NavigationTargetParams {
  const params: NavigationTargetParams = { workspaceRoot: p.workspaceRoot() };
  const symbol = p.string('symbol');
  const hasPosition = p.has('position');
  if (symbol !== undefined && hasPosition) throw invalid('give params.symbol or params.position, not both');
  if (symbol === undefined) {
    params.filePath = p.filePath();
    params.position = p.position();
  } else {
    if (parseSymbolPath(symbol) === undefined) throw invalid('params.symbol has no name in it (e.g. "Cart.total")');
    params.symbol = symbol;
    if (p.string('filePath') !== undefined) params.filePath = p.filePath();
  }
  const nearest = p.boolean('nearest');
  const anchors = p.stringArray('anchorPaths');
  const text = p.text();
  if (nearest !== undefined) params.nearest = nearest;
  if (anchors !== undefined) params.anchorPaths = anchors;
  if (text !== undefined) params.text = text;
  return params;
}

/**
 * @param params the target fields
 * @param services the engine
 * @param invocation root and signal
 * @returns the file and position to ask at, with the name and a note
 * @throws ActionError `LSP_ACTION_NO_SYMBOL` with `details.candidates` when it cannot be settled
 */
export async function resolveNavigationTarget(
  params: NavigationTargetParams,
  services: Pick<ActionServices, 'engine'>,
  invocation: Pick<ActionInvocation, 'root' | 'signal'>,
): Promise<ResolvedTarget> {
  if (params.symbol !== undefined) return resolveSymbol(params.symbol, params, services, invocation);
  const file = resolveFileTarget(invocation.root, params.filePath ?? '', params.text);
  const position = params.position as Position;
  if (params.nearest !== true) return { file, position };
  const text = params.text ?? (await services.engine.fileText(file.path, { signal: invocation.signal }));
  if (text === undefined) return { file, position };
  const snapped = snapToIdentifier(text, position);
  return { file, position: snapped.position, name: snapped.name, ...(snapped.note ? { note: snapped.note } : {}) };
}

async function resolveSymbol(
  symbol: string,
  params: NavigationTargetParams,
  services: Pick<ActionServices, 'engine'>,
  invocation: Pick<ActionInvocation, 'root' | 'signal'>,
): Promise<ResolvedTarget> {
  const { engine } = services;
  const { root, signal } = invocation;
  const path = parseSymbolPath(symbol) as SymbolPath;
  let matches: SymbolMatch[];
  let where: string;
  if (params.filePath !== undefined) {
    const file = resolveFileTarget(root, params.filePath, params.text);
    const { symbols } = await engine.documentSymbols(file.target, { signal });
    matches = matchInOutline(symbols, path);
    where = `in ${file.filePath}`;
  } else {
    const found = (await searchUntilFound(path.name, params.anchorPaths ?? [], services, invocation)).filter((s) => isInside(root, s.location.path));
    matches = preferOwnSources(matchInSearch(found, path));
    if (matches.length === 0 && path.containers.length > 0) matches = preferOwnSources(await matchThroughOutlines(found, path, services, invocation));
    where = 'in the workspace';
  }
  matches = uniqueMatches(matches);
  if (matches.length === 0) {
    const hint =
      params.filePath === undefined
        ? ', or use a line and column. A server that just started may not have indexed every file yet: with file_path the name is looked up in that file\'s outline.'
        : ', drop file_path to search the workspace, or use a line and column.';
    throw new ActionError('LSP_ACTION_NO_SYMBOL', `no symbol named ${symbol} ${where}. Check the spelling (names are case-sensitive)${hint}`, {
      candidates: [],
    });
  }
  if (matches.length > 1) {
    const listed = matches.slice(0, MAX_CANDIDATES).map((m) => describeMatch(root, m)).join('; ');
    const more = matches.length > MAX_CANDIDATES ? ` and ${matches.length - MAX_CANDIDATES} more` : '';
    throw new ActionError('LSP_ACTION_NO_SYMBOL', `${symbol} matches ${matches.length} declarations: ${listed}${more}. Qualify it (e.g. Container.${path.name}), give file_path, or use a line and column.`, {
      candidates: matches.map((m) => ({ name: containerPath(m), filePath: wirePath(root, m.symbol.location.path), position: m.symbol.selectionRange.start })),
    });
  }
  const match = matches[0] as SymbolMatch;
  const filePath = wirePath(root, match.symbol.location.path);
  const file = resolveFileTarget(root, resolveInsideRoot(root, match.symbol.location.path, 'the symbol'), params.filePath === undefined ? undefined : params.text);
  const text = file.target.text ?? (await engine.fileText(file.path, { signal }));
  const position = text === undefined ? match.symbol.selectionRange.start : nameStart(text, match.symbol, path.name);
  return {
    file: { ...file, filePath: params.filePath ?? filePath },
    position,
    name: path.name,
    note: `${symbol} is the ${kindWord(match.symbol.kind)} ${containerPath(match)} at ${filePath}:${position.line + 1}:${position.character + 1}`,
  };
}

/** Extra asks, and the pause before each, when a workspace search finds no symbol of the name. */
const EMPTY_SEARCH_RETRIES = 4;
const EMPTY_SEARCH_PAUSE_MS = 300;

/**
 * A workspace search that asks again, a few times, while it finds no symbol of that name: pyright
 * searches only the files it has parsed and parses the rest lazily after it starts (measured: 0,
 * then all matches about 0.35 s later). Only the miss path pays (at most 1.2 s); a found name is
 * answered at once. A name still missing is then an honest `LSP_ACTION_NO_SYMBOL`.
 */
async function searchUntilFound(
  query: string,
  anchorPaths: readonly string[],
  services: Pick<ActionServices, 'engine'>,
  invocation: Pick<ActionInvocation, 'root' | 'signal'>,
): Promise<SymbolNode[]> {
  let found = await searchWorkspace(query, anchorPaths, services, invocation);
  for (let retry = 0; retry < EMPTY_SEARCH_RETRIES && !found.some((s) => normalizeName(s.name) === query); retry++) {
    await sleep(EMPTY_SEARCH_PAUSE_MS, undefined, { signal: invocation.signal }).catch(() => {
      throw abortError(invocation.signal);
    });
    found = await searchWorkspace(query, anchorPaths, services, invocation);
  }
  return found;
}

/** Workspace search through one anchor per server (servers such as tsserver index once a file is open). */
async function searchWorkspace(
  query: string,
  anchorPaths: readonly string[],
  { engine }: Pick<ActionServices, 'engine'>,
  { root, signal }: Pick<ActionInvocation, 'root' | 'signal'>,
): Promise<SymbolNode[]> {
  const anchors = new Map<string, string>();
  for (const [i, raw] of anchorPaths.entries()) {
    const path = resolveInsideRoot(root, raw, `params.anchorPaths[${i}]`);
    const server = engine.serversFor(path, root)[0];
    if (server !== undefined && !anchors.has(server)) anchors.set(server, path);
  }
  if (anchors.size === 0) return engine.workspaceSymbols(root, query, { signal });
  const results = await Promise.all([...anchors.values()].map((anchorPath) => engine.workspaceSymbols(root, query, { signal, anchorPath })));
  return results.flat();
}

/**
 * Servers that leave `containerName` out of search results (typescript-language-server for
 * members): the files where the bare name was found are outlined, and the path is matched there.
 */
async function matchThroughOutlines(
  found: readonly SymbolNode[],
  path: SymbolPath,
  { engine }: Pick<ActionServices, 'engine'>,
  { root, signal }: Pick<ActionInvocation, 'root' | 'signal'>,
): Promise<SymbolMatch[]> {
  const files = [...new Set(found.filter((s) => normalizeName(s.name) === path.name).map((s) => s.location.path))].sort();
  const outlines = await Promise.all(files.map((file) => engine.documentSymbols({ root, path: file }, { signal })));
  return outlines.flatMap(({ symbols }) => matchInOutline(symbols, path));
}

/** Declarations in the project's own sources win over copies under dependency folders. */
function preferOwnSources(matches: SymbolMatch[]): SymbolMatch[] {
  const own = matches.filter((m) => !/[\\/](node_modules|site-packages|\.venv|venv)[\\/]/.test(m.symbol.location.path));
  return own.length > 0 ? own : matches;
}

function isInside(root: string, path: string): boolean {
  try {
    resolveInsideRoot(root, path, 'location');
    return true;
  } catch {
    return false;
  }
}

/**
 * The name's own position inside the symbol's range: search results often point at the start of
 * the whole declaration (`export`, a decorator), where a request would ask about something else.
 */
function nameStart(text: string, symbol: SymbolNode, name: string): Position {
  const lines = splitLines(text);
  const from = symbol.selectionRange.start;
  const last = Math.min(lines.length - 1, Math.max(symbol.location.range.end.line, from.line));
  for (let line = from.line; line <= last; line++) {
    const spans = identifiersOnLine(lines[line] ?? '', line).filter((s) => s.name === name && (line > from.line || s.start >= from.character));
    if (spans[0] !== undefined) return { line, character: spans[0].start };
  }
  return from;
}

function containerPath(m: SymbolMatch): string {
  return [...m.containers, normalizeName(m.symbol.name)].join('.');
}

function describeMatch(root: string, m: SymbolMatch): string {
  const at = m.symbol.selectionRange.start;
  return `${kindWord(m.symbol.kind)} ${containerPath(m)} at ${wirePath(root, m.symbol.location.path)}:${at.line + 1}:${at.character + 1}`;
}

const KIND_WORDS: Record<number, string> = { 5: 'class', 6: 'method', 7: 'property', 8: 'field', 9: 'constructor', 10: 'enum', 11: 'interface', 12: 'function', 13: 'variable', 14: 'constant', 23: 'struct', 26: 'type parameter' };

function kindWord(kind: number): string {
  return KIND_WORDS[kind] ?? 'symbol';
}
