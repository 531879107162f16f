/**
 * The generated TypeScript project of `check-vs-tsc.ts` and `tsserver-floor.ts`: a tsconfig and
 * `files - 1` modules importing lower-numbered ones, `classes` interface/class/function groups
 * each (~14 lines a group), three of them with one type error.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @param files the project's file count (tsconfig included)
 * @returns the module numbers that hold a type error
 */
export function errorModulesOf(files: number): Set<number> {
  return new Set([7, Math.floor(files / 2), files - 2]);
}

/**
 * Writes the project.
 * @param root an empty directory
 * @param files file count, tsconfig included
 * @param classes declaration groups per module
 * @returns the module numbers that hold a type error
 */
export function generateCheckProject(root: string, files: number, classes = 1): Set<number> {
  const errorModules = errorModulesOf(files);
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'bench-check-vs-tsc', private: true, type: 'module' }));
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'NodeNext', skipLibCheck: true }, include: ['src'] }),
  );
  mkdirSync(join(root, 'src'), { recursive: true });
  for (let i = 0; i < files - 1; i++) {
    const imports = [i - 1, i - 3, i - 7].filter((j) => j >= 0);
    const lines = imports.map((j) => `import { Item${j}, make${j} } from './m${j}.js';`);
    for (let k = 0; k < classes; k++) {
      // the first group keeps the plain names other modules import
      const n = k === 0 ? `${i}` : `${i}_${k}`;
      lines.push(
        '',
        `export interface Item${n} { id: number; name: string; tags: string[]; parent?: Item${n} }`,
        `export class Store${n} {`,
        `  private readonly items = new Map<number, Item${n}>();`,
        `  add(item: Item${n}): this { this.items.set(item.id, item); return this; }`,
        `  find(pred: (item: Item${n}) => boolean): Item${n} | undefined { return [...this.items.values()].find(pred); }`,
        `  names(): string[] { return [...this.items.values()].map((it) => it.name.toUpperCase()); }`,
        '}',
        `export function make${n}(id: number): Item${n} {`,
        `  return { id, name: \`item-\${id}\`, tags: ['t${n}'] };`,
        '}',
        `export function total${n}(store: Store${n}): number {`,
        `  return store.names().reduce((sum, n) => sum + n.length, 0);`,
        '}',
      );
    }
    lines.push(
      ...imports.map((j) => `export const from${j}: Item${j} = make${j}(${i});`),
      errorModules.has(i) ? `export const broken${i}: number = make${i}(1).name;` : `export const ok${i}: string = make${i}(1).name;`,
      '',
    );
    writeFileSync(join(root, 'src', `m${i}.ts`), lines.join('\n'));
  }
  return errorModules;
}
