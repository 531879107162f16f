/**
 * Cross-file fixtures (issue 7): `main` imports `f` from `lib`; the scenarios change `lib` so
 * that `main` gets an error it does not have by itself, delete it, recreate it; and a deep
 * generated import graph whose bottom module changes a type the top module uses.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** lib.ts as first written: `f(a)` returning a number. */
export const LIB_TS = 'export function f(a: number): number {\n  return a;\n}\n';
/** An extra required parameter: main.ts's `f(1)` → TS2554. */
export const LIB_TS_TWO_PARAMS = 'export function f(a: number, b: number): number {\n  return a + b;\n}\n';
/** Another return type: main.ts's `const r: number = f(1)` → TS2322. */
export const LIB_TS_RETURNS_STRING = 'export function f(a: number): string {\n  return String(a);\n}\n';
/** main.ts: clean against {@link LIB_TS}. */
export const MAIN_TS = "import { f } from './lib';\n\nexport const r: number = f(1);\n";

/**
 * @param root workspace root
 * @param rel relative path
 * @param text content
 * @returns the absolute path
 */
export function put(root: string, rel: string, text: string): string {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/**
 * A chain of `depth` modules: `m0.ts` (the top, what is asked about) uses a type that each
 * module re-exports from the next, down to `m<depth-1>.ts`, which defines it.
 * @param root workspace root
 * @param dir folder for the graph
 * @param depth modules in the chain (≥ 2)
 * @returns the top module's path, and the bottom module's relative path
 */
export function writeImportChain(root: string, dir: string, depth: number): { top: string; bottom: string } {
  const bottom = `${dir}/m${depth - 1}.ts`;
  put(root, bottom, chainBottom(depth, 'number'));
  for (let i = depth - 2; i >= 1; i--) {
    put(root, `${dir}/m${i}.ts`, `import type { T${i + 1} } from './m${i + 1}';\nexport type T${i} = T${i + 1};\nexport const k${i} = ${i};\n`);
  }
  const top = put(root, `${dir}/m0.ts`, "import type { T1 } from './m1';\n\nexport const v: T1 = { id: 1 };\n");
  return { top, bottom };
}

/**
 * @param depth the chain's depth
 * @param type the bottom type's `id` type
 * @returns the bottom module's text
 */
export function chainBottom(depth: number, type: string): string {
  return `export type T${depth - 1} = { id: ${type} };\n`;
}
