/**
 * Source lines for navigation answers (`withSource`): each listed location gets the text of its
 * first line, read as the servers see the file now (the synced copy when open, else the file
 * through the fs seam), one read per file. Only the locations that survive the item cap are read.
 */
import { resolve } from 'node:path';
import type { LspEngineApi, Range } from '../lsp/engine-types.ts';
import { splitLines } from './identifier-at.ts';
import type { WireLocation } from './navigation-results.ts';

/** Longest line text kept per location. */
export const MAX_LINE_TEXT = 240;

/**
 * @param root workspace root (wire paths are relative to it)
 * @param locations wire locations; `lineText` is set in place on those whose file is readable
 * @param engine reads the texts
 * @param signal cancels
 */
export async function attachLineTexts(
  root: string,
  locations: ReadonlyArray<WireLocation>,
  engine: Pick<LspEngineApi, 'fileText'>,
  signal: AbortSignal,
): Promise<void> {
  const byFile = new Map<string, WireLocation[]>();
  for (const location of locations) {
    const list = byFile.get(location.filePath) ?? [];
    list.push(location);
    byFile.set(location.filePath, list);
  }
  await Promise.all(
    [...byFile].map(async ([filePath, list]) => {
      const text = await engine.fileText(resolve(root, filePath), { signal });
      if (text === undefined) return;
      const lines = splitLines(text);
      for (const location of list) {
        const line = lines[location.range.start.line];
        if (line !== undefined) location.lineText = line.length > MAX_LINE_TEXT ? line.slice(0, MAX_LINE_TEXT) : line;
      }
    }),
  );
}

const before = (x: Range['start'], y: Range['start']): boolean => x.line < y.line || (x.line === y.line && x.character < y.character);

/**
 * @param a a range
 * @param b another range
 * @returns whether they share a position (touching ends count)
 */
export function rangesMeet(a: Range, b: Range): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/**
 * Marks the references that are the symbol's declaration(s).
 * @param locations references (wire)
 * @param declarations the definition's locations (wire)
 */
export function markDeclarations(locations: ReadonlyArray<WireLocation>, declarations: ReadonlyArray<WireLocation>): void {
  for (const location of locations) {
    if (declarations.some((d) => d.filePath === location.filePath && rangesMeet(d.range, location.range))) location.declaration = true;
  }
}
