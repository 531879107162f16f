/**
 * Addressing a symbol by name (issue 22): `Cart.total`, `total`, `shapes.Circle.area`. The last
 * segment is the symbol's name, the ones before it its containers (innermost last), matched as a
 * suffix of the symbol's container chain — in a file outline the enclosing symbols, in a
 * workspace search the server's `containerName`. Pure.
 */
import type { SymbolNode } from '../lsp/engine-types.ts';

/** A parsed symbol path. */
export interface SymbolPath {
  /** The symbol's own name. */
  name: string;
  /** Enclosing names, outermost first (may be empty). */
  containers: string[];
}

/** A symbol that matches a path, with the chain of names it was matched through. */
export interface SymbolMatch {
  symbol: SymbolNode;
  /** Containers from the outline (outermost first), or the `containerName` of a search result. */
  containers: string[];
}

/**
 * @param text the model's `symbol`, e.g. `Cart.total`, `Cart#total`, `Cart::total()`
 * @returns the path, or undefined when there is no name in it
 */
export function parseSymbolPath(text: string): SymbolPath | undefined {
  const segments = text
    .trim()
    .split(/::|[.#/\\]/)
    .map(normalizeName)
    .filter((s) => s !== '');
  const name = segments.pop();
  return name === undefined ? undefined : { name, containers: segments };
}

/**
 * A server's symbol name in comparable form: `total()`, `total(a, b)` and ` total ` → `total`.
 * @param name as the server or the model wrote it
 * @returns the bare name
 */
export function normalizeName(name: string): string {
  const paren = name.indexOf('(');
  return (paren >= 0 ? name.slice(0, paren) : name).trim();
}

/**
 * @param chain names of the enclosing symbols, outermost first
 * @param wanted the path's containers, outermost first
 * @returns whether `wanted` is a suffix of `chain`
 */
function endsWith(chain: readonly string[], wanted: readonly string[]): boolean {
  if (wanted.length > chain.length) return false;
  const offset = chain.length - wanted.length;
  return wanted.every((name, i) => normalizeName(chain[offset + i] ?? '') === name);
}

/**
 * @param outline a file's document symbols (trees)
 * @param path the wanted symbol
 * @returns every node whose name and enclosing chain match, in document order
 */
export function matchInOutline(outline: readonly SymbolNode[], path: SymbolPath): SymbolMatch[] {
  const out: SymbolMatch[] = [];
  const walk = (nodes: readonly SymbolNode[], chain: string[]): void => {
    for (const node of nodes) {
      if (normalizeName(node.name) === path.name && endsWith(chain, path.containers)) out.push({ symbol: node, containers: chain });
      walk(node.children, [...chain, normalizeName(node.name)]);
    }
  };
  walk(outline, []);
  return out.sort((a, b) => compareStart(a.symbol, b.symbol));
}

/**
 * @param found workspace search results
 * @param path the wanted symbol
 * @returns results whose name matches exactly and whose `containerName` (split like a path) ends with the containers
 */
export function matchInSearch(found: readonly SymbolNode[], path: SymbolPath): SymbolMatch[] {
  const out: SymbolMatch[] = [];
  for (const symbol of found) {
    if (normalizeName(symbol.name) !== path.name) continue;
    const containers = symbol.containerName === undefined ? [] : (parseSymbolPath(`${symbol.containerName}.x`)?.containers ?? []);
    if (endsWith(containers, path.containers)) out.push({ symbol, containers });
  }
  return out.sort((a, b) => (a.symbol.location.path < b.symbol.location.path ? -1 : a.symbol.location.path > b.symbol.location.path ? 1 : compareStart(a.symbol, b.symbol)));
}

function compareStart(a: SymbolNode, b: SymbolNode): number {
  return a.selectionRange.start.line - b.selectionRange.start.line || a.selectionRange.start.character - b.selectionRange.start.character;
}

/**
 * The same declaration can come back twice (two servers, or a search and an outline): keep one
 * per file and name position.
 * @param matches matches in order
 * @returns matches without repeats
 */
export function uniqueMatches(matches: readonly SymbolMatch[]): SymbolMatch[] {
  const seen = new Set<string>();
  return matches.filter((m) => {
    const { path } = m.symbol.location;
    const key = `${path}\0${m.symbol.selectionRange.start.line}:${normalizeName(m.symbol.name)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
