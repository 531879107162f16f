/**
 * The directory names a workspace's root `.gitignore` excludes, read through the harness fs, for
 * the model tool's bounded workspace walk — which may run over a backend where git cannot be
 * asked. Only plain names are understood (`dist`, `dist/`, `/build/`, `out/`): a line with a
 * wildcard, a negation or an inner slash is left alone (the walk then descends, which costs a
 * bounded walk some files, never a wrong answer). `check` asks git itself
 * (`src/cli/gitignored-paths.ts`).
 */
import { join } from 'node:path';
import type { FileSystem } from '@deepseek-ai/dsh-fs';

/** Directory names to skip: `anywhere` at any depth, `atRoot` only directly under the root. */
export interface IgnoredNames {
  anywhere: ReadonlySet<string>;
  atRoot: ReadonlySet<string>;
}

/** Nothing ignored (no `.gitignore`, or it could not be read). */
export const NO_IGNORED_NAMES: IgnoredNames = { anywhere: new Set(), atRoot: new Set() };

/**
 * @param text a `.gitignore`'s content
 * @returns the plain directory names it excludes
 */
export function parseIgnoredNames(text: string): IgnoredNames {
  const anywhere = new Set<string>();
  const atRoot = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!') || /[*?[\]\\]/.test(line)) continue;
    const anchored = line.startsWith('/');
    const name = line.replace(/^\/+/, '').replace(/\/+$/, '');
    if (name === '' || name.includes('/') || name === '.' || name === '..') continue;
    (anchored ? atRoot : anywhere).add(name);
  }
  return { anywhere, atRoot };
}

/**
 * @param fs the harness file system
 * @param root absolute workspace root
 * @param signal cancels
 * @returns the names the root `.gitignore` excludes, or none
 */
export async function readIgnoredNames(fs: Pick<FileSystem, 'resolve' | 'readText'>, root: string, signal: AbortSignal): Promise<IgnoredNames> {
  try {
    const target = await fs.resolve(join(root, '.gitignore'), { signal });
    return parseIgnoredNames(await fs.readText(target, signal));
  } catch {
    // No .gitignore (or unreadable): nothing is known to be ignored.
    return NO_IGNORED_NAMES;
  }
}
