/**
 * Generates a large TypeScript file (a few thousand lines) whose only error is semantic: every
 * line parses, and one assignment near the end is a type error (TS2322) that only the checker
 * finds — after inferring through hundreds of generic calls above it.
 */

/** One generated fixture. */
export interface LargeSemanticFile {
  text: string;
  /** Zero-based line of the TS2322. */
  errorLine: number;
  lines: number;
}

/**
 * @param blocks how many generated blocks (7 lines each)
 * @returns the file and where its only error is
 */
export function largeSemanticFile(blocks = 500): LargeSemanticFile {
  const out: string[] = ['// generated: a large file whose only error is semantic', 'export interface R0 { id: number; name: string; tags: string[] }'];
  for (let i = 1; i <= blocks; i++) {
    out.push(
      `export interface R${i} extends R0 { f${i}: { depth: ${i}; label: \`r${i}-\${string}\` }; prev: R${i - 1}['tags'] }`,
      `export const v${i} = [1, 2, 3].map((n) => ({ id: n, name: \`n\${n}\`, tags: [String(n)] })).filter((r) => r.id > ${i % 3});`,
      `export function g${i}<K extends keyof R${i}>(r: R${i}, k: K): R${i}[K] {`,
      '  return r[k];',
      '}',
      `export type M${i} = { [K in keyof R${i}]: R${i}[K] extends number ? string : R${i}[K] };`,
      `export const w${i} = v${i}.reduce<Record<string, (typeof v${i})[number]>>((acc, r) => ({ ...acc, [r.name]: r }), {});`,
    );
  }
  out.push(`declare const last: R${blocks};`);
  const errorLine = out.length;
  out.push(`export const bad: number = g${blocks}(last, 'name');`);
  out.push('');
  return { text: out.join('\n'), errorLine, lines: out.length };
}
