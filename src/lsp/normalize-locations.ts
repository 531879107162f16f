/**
 * Definition / references answers: `Location`, `Location[]`, `LocationLink[]` or `null`,
 * normalised to {@link FileLocation}s (paths, UTF-16). A LocationLink points at its
 * `targetSelectionRange` (the name), falling back to `targetRange`.
 */
import type { FileLocation } from './engine-types.ts';
import { isObject, malformed, readLocation, readRange, uriToPath, type NormalizeContext } from './normalize-common.ts';

/**
 * @param ctx normaliser context
 * @param raw the server's answer
 * @param what which request (for errors)
 * @returns file locations in answer order, duplicates removed; non-file targets skipped
 */
export function normalizeLocations(ctx: NormalizeContext, raw: unknown, what = 'locations'): FileLocation[] {
  if (raw === null || raw === undefined) return [];
  const items = Array.isArray(raw) ? raw : [raw];
  const out: FileLocation[] = [];
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const location = readOne(ctx, item, `${what}[${i}]`);
    if (location === undefined) return;
    const key = `${location.path}:${location.range.start.line}:${location.range.start.character}:${location.range.end.line}:${location.range.end.character}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(location);
  });
  return out;
}

function readOne(ctx: NormalizeContext, item: unknown, what: string): FileLocation | undefined {
  if (!isObject(item)) throw malformed(ctx, `${what} is not a Location or LocationLink`);
  if ('targetUri' in item) {
    const path = uriToPath(item.targetUri);
    if (path === undefined) return undefined;
    const range = item.targetSelectionRange ?? item.targetRange;
    return { path, range: readRange(ctx, range, path, `${what}.targetSelectionRange`) };
  }
  return readLocation(ctx, item, what);
}
