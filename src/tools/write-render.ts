/**
 * Model-facing text of the write tools (`lsp_format`, `lsp_organize_imports`, `lsp_rename`,
 * `lsp_code_action` when applying): what was written, per file the edit count and which lines
 * now differ (one-based, in the new text), so the model knows which parts of its view are out of
 * date without the tool echoing file content. Pure; bounded by `maxResultChars`.
 */
import type { FileDiff, FileEditCount } from '../actions/action-results.ts';
import { changedLines } from './line-diff.ts';
import { displayPath, plural } from './locations.ts';
import { oneLine, renderBoundedList } from './text-budget.ts';

/** Longest list of changed line ranges shown for one file. */
const MAX_RANGES_PER_FILE = 12;

/** A completed write, as the write actions report it. */
export interface WriteOutcome {
  /** The first line of the text, e.g. `Formatted src/a.ts`. */
  summary: string;
  diffs: readonly FileDiff[];
  /** Edit counts per file, when the action reports them. */
  files?: readonly FileEditCount[];
  /** Extra lines after the file list (e.g. a command's outcome). */
  notes?: readonly string[];
}

/**
 * @param ranges one-based inclusive line ranges
 * @returns `3-7, 12, 40-41` (with `…` past the per-file limit)
 */
export function formatRanges(ranges: ReadonlyArray<readonly [number, number]>): string {
  const shown = ranges.slice(0, MAX_RANGES_PER_FILE).map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`));
  if (ranges.length > MAX_RANGES_PER_FILE) shown.push(`… ${ranges.length - MAX_RANGES_PER_FILE} more`);
  return shown.join(', ');
}

/**
 * @param root workspace root
 * @param diff before/after of one file
 * @param edits how many edits the action applied to it, when known
 * @returns `src/a.ts: 3 edits; changed lines 3-7, 12`
 */
export function fileChangeLine(root: string, diff: FileDiff, edits: number | undefined): string {
  const path = displayPath(root, diff.filePath);
  const count = edits === undefined ? '' : `${plural(edits, 'edit')}; `;
  if (diff.before === diff.after) return `${path}: ${count}content unchanged`;
  return `${path}: ${count}changed lines ${formatRanges(changedLines(diff.before, diff.after))}`;
}

/**
 * @param root workspace root
 * @param outcome the write
 * @param maxChars `maxResultChars`
 * @returns the model-facing text
 */
export function renderWrite(root: string, outcome: WriteOutcome, maxChars: number): string {
  const edits = new Map<string, number>();
  for (const f of outcome.files ?? []) edits.set(displayPath(root, f.filePath), f.editCount);
  const items = outcome.diffs.map((d) => fileChangeLine(root, d, edits.get(displayPath(root, d.filePath))));
  const tail = (outcome.notes ?? []).map((n) => oneLine(n, 600));
  if (outcome.diffs.length > 0) tail.push('Line numbers are in the new text; re-read those lines before editing them.');
  return renderBoundedList({ head: [outcome.summary], items, alreadyOmitted: 0, noun: 'changed files', tail }, maxChars).text;
}

/**
 * @param root workspace root
 * @param filePath the file the action was about
 * @param reason why nothing changed, when the action says
 * @param maxChars `maxResultChars`
 * @returns the model-facing text for an unchanged outcome
 */
export function renderUnchanged(root: string, filePath: string, reason: string | undefined, maxChars: number): string {
  const why = reason ? `: ${oneLine(reason, 600)}` : '.';
  return oneLine(`Nothing changed in ${displayPath(root, filePath)}${why}`, maxChars);
}
