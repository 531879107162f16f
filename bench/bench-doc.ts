/**
 * docs/benchmarks.md is one page written by several generators and by hand. Each generator owns
 * one block between `<!-- NAME:start -->` and `<!-- NAME:end -->` and replaces only that block;
 * everything outside the blocks — the hand-kept summary and readings, sections others appended
 * at the end — is kept byte for byte. A block not on the page yet is appended at the end.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The page. */
export const BENCH_DOC = join(import.meta.dirname, '..', 'docs', 'benchmarks.md');

/** The generated blocks, by the generator that writes each. */
export const BENCH_SECTIONS = {
  /** `node bench/diagnostics-strategies.ts --write`: the current default against the push strategy. */
  'diagnostics-strategies': 'bench/diagnostics-strategies.ts',
  /** `node bench/edit-feedback.ts --write` */
  'edit-feedback': 'bench/edit-feedback.ts',
  /** `node bench/check-vs-tsc.ts --write` */
  'check-vs-tsc': 'bench/check-vs-tsc.ts',
  /** `npm run bench -- --write`: engine, floor and transient clients, and the editor protocol. */
  'bench-run': 'bench/run.ts',
} as const;

export type BenchSection = keyof typeof BENCH_SECTIONS;

/**
 * @param doc the page's text
 * @param name the block
 * @param block the block's new content (without the markers)
 * @returns the page with that block replaced (or appended), everything else unchanged
 * @throws Error when the page holds the markers out of order or more than once
 */
export function replaceBlock(doc: string, name: string, block: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const marked = `${start}\n${block.trim()}\n${end}`;
  const at = doc.indexOf(start);
  const until = doc.indexOf(end);
  if (at < 0 && until < 0) return `${doc.trimEnd()}\n\n${marked}\n`;
  if (at < 0 || until < at || doc.indexOf(start, at + 1) >= 0 || doc.indexOf(end, until + 1) >= 0) {
    throw new Error(`${BENCH_DOC}: the ${name} markers must appear once each, start before end`);
  }
  return `${doc.slice(0, at)}${marked}${doc.slice(until + end.length)}`;
}

/**
 * Rewrites one generated block of docs/benchmarks.md.
 * @param name the block
 * @param block its new content
 * @param path the page (tests pass a copy)
 */
export function writeBenchSection(name: BenchSection, block: string, path: string = BENCH_DOC): void {
  writeFileSync(path, replaceBlock(readFileSync(path, 'utf8'), name, block));
}
