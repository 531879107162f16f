/**
 * UI cards of the `lsp_*` tools. Pure: `presentationMeta` projects the structured result into
 * small replayable JSON, and the presenters rebuild the card from `result.meta` alone (they run
 * on live streaming and on replay, with no I/O and no clock). Writes show diff cards; reads show
 * search cards (or generic ones) with follow-along locations.
 */
import type {
  DiffResultView,
  FileDiff,
  GenericCallView,
  JsonValue,
  SearchFileMatches,
  SearchMatchesResultView,
  ToolCallKind,
  ToolResult,
} from '@deepseek-ai/dsh-tools';
import type { FileDiff as WireFileDiff } from '../actions/action-results.ts';
import { hunkDiffs } from './line-diff.ts';
import { displayPath } from './locations.ts';

/** Meta of a write tool: the applied hunks, per file, with workspace-relative paths. */
export interface DiffMeta {
  diffs: FileDiff[];
}

/** Meta of a read tool shown as a search card. */
export interface SearchMeta {
  files: SearchFileMatches[];
  truncated: boolean;
  total: number;
}

/**
 * @param root workspace root
 * @param diffs before/after of each written file (as the write actions return them)
 * @returns the diff meta (three lines of context per hunk)
 */
export function diffMeta(root: string, diffs: readonly WireFileDiff[]): DiffMeta {
  return { diffs: diffs.flatMap((d) => hunkDiffs(displayPath(root, d.filePath), d.before, d.after)) };
}

/**
 * @param value anything (live or replayed meta)
 * @returns the diffs when `value` is well-formed diff meta with at least one diff
 */
export function diffsFromMeta(value: unknown): FileDiff[] | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const diffs = (value as { diffs?: unknown }).diffs;
  if (!Array.isArray(diffs) || diffs.length === 0) return undefined;
  const ok = diffs.every((d: unknown) => {
    if (typeof d !== 'object' || d === null) return false;
    const { path, oldText, newText } = d as Record<string, unknown>;
    return typeof path === 'string' && (oldText === null || typeof oldText === 'string') && typeof newText === 'string';
  });
  return ok ? (diffs as FileDiff[]) : undefined;
}

/**
 * @param title card title
 * @param result the completed call
 * @returns a diff card rebuilt from the meta, or undefined (generic card) on failure or no change
 */
export function diffResultView(title: string, result: ToolResult): DiffResultView | undefined {
  if (result.isError) return undefined;
  const diffs = diffsFromMeta(result.meta);
  return diffs ? { card: 'diff', title, diffs } : undefined;
}

/**
 * @param value anything (live or replayed meta)
 * @returns the search meta when well-formed
 */
export function searchFromMeta(value: unknown): SearchMeta | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { files, truncated, total } = value as Record<string, unknown>;
  if (!Array.isArray(files) || typeof truncated !== 'boolean' || typeof total !== 'number') return undefined;
  const ok = files.every((f: unknown) => {
    if (typeof f !== 'object' || f === null) return false;
    const { path, matches } = f as Record<string, unknown>;
    return (
      typeof path === 'string' &&
      Array.isArray(matches) &&
      matches.every((m: unknown) => typeof m === 'object' && m !== null && typeof (m as Record<string, unknown>).lineNumber === 'number' && typeof (m as Record<string, unknown>).line === 'string')
    );
  });
  return ok ? { files: files as SearchFileMatches[], truncated, total } : undefined;
}

/**
 * @param title card title
 * @param result the completed call
 * @returns a grouped-matches search card rebuilt from the meta, or undefined (generic card)
 */
export function searchResultView(title: string, result: ToolResult): SearchMatchesResultView | undefined {
  if (result.isError) return undefined;
  const meta = searchFromMeta(result.meta);
  return meta ? { card: 'search', shape: 'matches', title, ...meta } : undefined;
}

/**
 * Groups one-based matches by file, keeping first-seen file order.
 * @param matches `[path, oneBasedLine, text]` triples, paths already for display
 * @param truncated whether the tool capped the list
 * @param total matches before capping
 * @returns search meta
 */
export function searchMeta(matches: ReadonlyArray<readonly [string, number, string]>, truncated: boolean, total: number): SearchMeta {
  const byPath = new Map<string, SearchFileMatches>();
  for (const [path, lineNumber, line] of matches) {
    let group = byPath.get(path);
    if (!group) {
      group = { path, matches: [] };
      byPath.set(path, group);
    }
    group.matches.push({ lineNumber, line });
  }
  return { files: [...byPath.values()], truncated, total };
}

/**
 * A pending-call card for any `lsp_*` tool.
 * @param title what this call does
 * @param kind icon category
 * @param paths the model's `file_path`s, with optional one-based lines
 * @returns a generic call card
 */
export function callCard(title: string, kind: ToolCallKind, paths: ReadonlyArray<{ path: string; line?: number }>): GenericCallView {
  const locations = paths.map((p) => (typeof p.line === 'number' ? { path: p.path, line: p.line } : { path: p.path }));
  return locations.length > 0 ? { card: 'generic', title, kind, locations } : { card: 'generic', title, kind };
}

/**
 * @param value meta built by this module
 * @returns it, typed as the JSON the harness persists
 */
export function asJson(value: DiffMeta | SearchMeta): JsonValue {
  return value as unknown as JsonValue;
}
