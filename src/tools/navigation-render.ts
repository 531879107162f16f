/**
 * What the navigation tools show the model (issue 22): every place as one-based `line:col` with
 * its source line, grouped under its file (files in path order, places in line order), the
 * declaration marked, bounded by `maxResultChars` with a count of what was left out; hover as the
 * signature and the first paragraph of its documentation. Pure.
 */
import type { CallHierarchyGetResult, HoverGetResult, LocationsResult, SymbolsGetResult, WireCallItem, WireLocation } from '../actions/action-results.ts';
import { displayPath, formatAt, oneBasedPosition, symbolKindName } from './locations.ts';
import { formatSymbol } from './lsp-symbols-tool.ts';
import { cutText, oneLine, renderBoundedList } from './text-budget.ts';

/** What every navigation answer says about freshness. */
export const FRESH_NOTE = 'answered after syncing the servers with the files on disk';

/** Longest source line shown per place. */
const MAX_LINE_CHARS = 200;
/** Longest documentation paragraph in a hover. */
const MAX_DOC_CHARS = 800;
/** Longest signature block in a hover. */
const MAX_SIGNATURE_CHARS = 1_200;

/** A structured result and the workspace it ran in. */
export type WithRoot<T> = T & { workspaceRoot: string };

const NOUNS: Record<LocationsResult['kind'], { title: string; noun: string; none: string }> = {
  definition: { title: 'Definition of', noun: 'locations', none: 'No definition found for' },
  references: { title: 'References to', noun: 'references', none: 'No references found to' },
  implementation: { title: 'Implementations of', noun: 'implementations', none: 'No implementations found for' },
};

/**
 * @param value a result that may carry a name and a note
 * @param value.name the identifier asked about
 * @param root workspace root
 * @param filePath where it was asked
 * @param position zero-based position asked at
 * @returns `` `name` at path:line:col `` (or just the place)
 */
function subject(value: { name?: string }, root: string, filePath: string, position: { line: number; character: number }): string {
  const at = formatAt(root, filePath, position);
  return value.name === undefined ? at : `\`${value.name}\` at ${at}`;
}

/**
 * Groups places by file in path order, lines in position order.
 * @param root workspace root
 * @param places wire places
 * @param line the text after `line:col` for one place
 * @returns the item lines (file headers count 0) and their counts
 */
function groupedItems<T extends WireLocation>(root: string, places: readonly T[], line: (place: T) => string): { items: string[]; counts: number[] } {
  const byFile = new Map<string, T[]>();
  for (const place of places) {
    const list = byFile.get(place.filePath) ?? [];
    list.push(place);
    byFile.set(place.filePath, list);
  }
  const items: string[] = [];
  const counts: number[] = [];
  for (const file of [...byFile.keys()].sort()) {
    const list = (byFile.get(file) ?? []).sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
    items.push(`${displayPath(root, file)}`);
    counts.push(0);
    for (const place of list) {
      items.push(`  ${oneBasedPosition(place.range.start)}: ${line(place)}`);
      counts.push(1);
    }
  }
  return { items, counts };
}

/**
 * @param place a place with its line text
 * @returns the trimmed source line, or a placeholder
 */
function sourceOf(place: WireLocation): string {
  return place.lineText === undefined ? '(source not readable)' : oneLine(place.lineText.trim(), MAX_LINE_CHARS);
}

/**
 * @param value a `definition.get` / `references.get` / `implementation.get` result
 * @param maxChars `maxResultChars`
 * @returns the model-facing text
 */
export function renderLocations(value: WithRoot<LocationsResult>, maxChars: number): string {
  const root = value.workspaceRoot;
  const words = NOUNS[value.kind];
  const what = subject(value, root, value.filePath, value.position);
  const head: string[] = [];
  if (value.total === 0) {
    head.push(`${words.none} ${what} (${FRESH_NOTE}).`);
  } else {
    const files = new Set(value.locations.map((l) => l.filePath)).size;
    const count = value.truncated ? `${value.total} (first ${value.locations.length} listed)` : `${value.total}`;
    head.push(`${words.title} ${what}: ${count} in ${files === 1 ? '1 file' : `${files} files`} (${FRESH_NOTE}; line:col one-based).`);
  }
  if (value.note !== undefined) head.push(`Note: ${value.note}.`);
  const { items, counts } = groupedItems(root, value.locations, (l) => `${sourceOf(l)}${l.declaration === true ? '   ← declaration' : ''}`);
  return renderBoundedList({ head, items, counts, alreadyOmitted: Math.max(0, value.total - value.locations.length), noun: words.noun }, maxChars).text;
}

/**
 * @param item a call hierarchy item
 * @param root workspace root
 * @returns `function name (path:line:col)`
 */
function describeItem(item: WireCallItem, root: string): string {
  return `${symbolKindName(item.kind)} ${item.name} (${formatAt(root, item.filePath, item.selectionRange.start)})`;
}

/**
 * @param value a `callHierarchy.get` result
 * @param maxChars `maxResultChars`
 * @returns the model-facing text
 */
export function renderCallHierarchy(value: WithRoot<CallHierarchyGetResult>, maxChars: number): string {
  const root = value.workspaceRoot;
  const incoming = value.direction === 'incoming';
  const head: string[] = [];
  const first = value.items[0];
  if (first === undefined) {
    head.push(`Nothing callable at ${subject(value, root, value.filePath, value.position)} (${FRESH_NOTE}); put the position on a function or method name, or name it with symbol.`);
  } else {
    const target = value.items.map((item) => describeItem(item, root)).join(', ');
    const files = new Set(value.calls.map((c) => c.filePath)).size;
    const count = value.truncated ? `${value.total} call sites (first ${value.calls.length} listed)` : `${value.total} call site${value.total === 1 ? '' : 's'}`;
    head.push(
      value.total === 0
        ? `${incoming ? 'No calls to' : 'No calls from'} ${target} (${FRESH_NOTE}).`
        : `${incoming ? 'Calls to' : 'Calls from'} ${target}: ${count} in ${files === 1 ? '1 file' : `${files} files`} (${FRESH_NOTE}; line:col one-based).`,
    );
  }
  if (value.note !== undefined) head.push(`Note: ${value.note}.`);
  const { items, counts } = groupedItems(root, value.calls, (c) =>
    incoming ? `${sourceOf(c)}   ← in ${c.other.name}` : `${sourceOf(c)}   → ${describeItem(c.other, root)}`,
  );
  return renderBoundedList({ head, items, counts, alreadyOmitted: Math.max(0, value.total - value.calls.length), noun: 'call sites' }, maxChars).text;
}

/**
 * Splits hover Markdown into its code blocks (signatures) and its prose, and keeps the prose's
 * first paragraph (up to a blank line or a `---` rule).
 * @param contents hover Markdown or plain text
 * @returns signature text and first documentation paragraph
 */
export function splitHover(contents: string): { signature: string; doc: string } {
  const signature: string[] = [];
  const prose: string[] = [];
  let fence: string[] | undefined;
  for (const line of contents.split(/\r\n|\n|\r/)) {
    if (/^\s*(```|~~~)/.test(line)) {
      if (fence === undefined) fence = [];
      else {
        signature.push(fence.join('\n'));
        fence = undefined;
      }
      continue;
    }
    if (fence !== undefined) fence.push(line);
    else prose.push(line);
  }
  if (fence !== undefined) signature.push(fence.join('\n'));
  // paragraphs end at a blank line or a horizontal rule (`---`, `***`, `___`)
  const paragraphs: string[] = [];
  let current: string[] = [];
  for (const line of [...prose, '']) {
    if (line.trim() === '' || /^\s*(-{3,}|\*{3,}|_{3,})\s*$/.test(line)) {
      if (current.length > 0) paragraphs.push(current.join('\n').trim());
      current = [];
    } else current.push(line);
  }
  const sig = signature.map((s) => s.trim()).filter((s) => s !== '').join('\n');
  // No code block: plain-text hovers lead with the signature as their first paragraph.
  if (sig === '' && paragraphs.length > 0) return { signature: paragraphs[0] as string, doc: paragraphs[1] ?? '' };
  return { signature: sig, doc: paragraphs[0] ?? '' };
}

/**
 * @param value a `hover.get` result
 * @param maxChars `maxResultChars`
 * @returns the model-facing text
 */
export function renderHover(value: WithRoot<HoverGetResult>, maxChars: number): string {
  const what = subject(value, value.workspaceRoot, value.filePath, value.position);
  const note = value.note === undefined ? '' : `\nNote: ${value.note}.`;
  if (!value.found) return cutText(`No hover information for ${what} (${FRESH_NOTE}).${note}`, maxChars);
  const { signature, doc } = splitHover(value.contents);
  const lines = [`Hover for ${what} (${FRESH_NOTE}):${note}`];
  if (signature !== '') lines.push(cutText(signature, MAX_SIGNATURE_CHARS));
  if (doc !== '') lines.push(cutText(doc, MAX_DOC_CHARS));
  return cutText(lines.join('\n'), maxChars);
}

/** Said with every workspace search: servers search what they have indexed (pyright parses files lazily after start). */
export const INDEXED_NOTE = 'as far as the server has indexed the workspace; a server that just started may list fewer';

/**
 * @param value a `symbols.get` workspace search result
 * @param maxChars `maxResultChars`
 * @returns the model-facing text
 */
export function renderWorkspaceSymbols(value: WithRoot<SymbolsGetResult>, maxChars: number): string {
  const root = value.workspaceRoot;
  const count = value.truncated ? `${value.symbols.length} of ${value.total}` : `${value.total}`;
  const head = [`Symbols matching "${value.query ?? ''}": ${count} (${value.total === 0 ? '' : 'path:line:col one-based; '}${INDEXED_NOTE}).`];
  const items = value.symbols.map((symbol) => formatSymbol(root, symbol, 'workspace'));
  return renderBoundedList({ head, items, alreadyOmitted: Math.max(0, value.total - value.symbols.length), noun: 'symbols' }, maxChars).text;
}
