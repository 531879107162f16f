/**
 * What a replace overwrote, told from the text the fs seam read just before it (`writeText`'s
 * `before`): when that is not the text the file was expected to hold, someone else's save was
 * there, and this rebuilds it as it was on disk — the file's line endings and BOM — so it can be
 * put back. Used after our writes (`guarded-commit.ts`) and after rollback restores (`rollback.ts`).
 */

/**
 * @param seen what the seam read before the replace (LF-normalised, BOM dropped; null when it could not tell)
 * @param expected the text the file should have held then (its own line endings, no BOM)
 * @param bom whether the file starts with a BOM
 * @returns the overwritten save's text, or undefined when the seam read `expected` (or could not tell)
 */
export function overwrittenText(seen: string | null, expected: string, bom: boolean): string | undefined {
  if (seen === null || seen === expected.replaceAll('\r\n', '\n')) return undefined;
  const crlf = expected.includes('\r\n');
  return (bom ? '\uFEFF' : '') + (crlf ? seen.replaceAll('\n', '\r\n') : seen);
}
