/**
 * A deterministic generated TypeScript project for the benchmarks: `tsconfig.json`, a shared
 * types module, {@link MODULE_COUNT} modules that import lower-numbered modules (classes,
 * functions, factories), and `src/app.ts`, which imports from several of them and holds the one
 * type error the benchmark toggles with a one-line edit. Same input → same bytes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Modules under `src/modules/` (plus `src/core/types.ts`, `src/app.ts`, `tsconfig.json`: 200 files). */
export const MODULE_COUNT = 197;

/** Zero-based LSP position. */
export interface BenchPosition {
  line: number;
  character: number;
}

/** What a diagnostics call must show for the edit to count as seen. */
export type DiagExpectation =
  /** An error on `line` whose message names the literal `value` (unique per edit). */
  | { kind: 'error'; line: number; value: number }
  /** No error-severity diagnostic in the file at all. */
  | { kind: 'clean' };

/** The generated project and the places the benchmark probes. */
export interface BenchProject {
  root: string;
  /** The file that is edited and asked about. */
  appPath: string;
  /** Zero-based line of the toggled error. */
  errorLine: number;
  /** `src/app.ts` text: with the error (naming `errorValue`) or without (`undefined`). */
  appText(errorValue: number | undefined): string;
  /** The error line's text, for one-line incremental edits. */
  errorLineText(errorValue: number | undefined): string;
  /** The error value written at generation time. */
  initialErrorValue: number;
  /** Request positions in `appPath`. */
  probes: {
    completion: BenchPosition;
    hover: BenchPosition;
    definition: BenchPosition;
    references: BenchPosition;
    signatureHelp: BenchPosition;
  };
  /** A module asked for its document symbols in the mixed batch. */
  symbolsPath: string;
  /** A module asked to be formatted in the mixed batch. */
  formatPath: string;
}

const pad = (n: number): string => String(n).padStart(3, '0');
const errorLineText = (value: number | undefined): string => `export const retries: 0 | 1 | 2 = ${value ?? 1};`;

function typesModule(): string {
  return [
    '/** Something with an identity. */',
    'export interface Entity {',
    '  id: number;',
    '  name: string;',
    '}',
    '',
    '/** A keyed collection. */',
    'export interface Registry<T extends Entity> {',
    '  add(item: T): Registry<T>;',
    '  get(id: number): T | undefined;',
    '  count(): number;',
    '}',
    '',
    '/** Weighs a name. */',
    'export function weigh(name: string): number {',
    '  let sum = 0;',
    '  for (const ch of name) sum += ch.charCodeAt(0);',
    '  return sum;',
    '}',
    '',
  ].join('\n');
}

function moduleSource(i: number): string {
  const id = pad(i);
  const lines: string[] = [`import { type Entity, type Registry, weigh } from '../core/types';`];
  const parent = i === 0 ? undefined : pad(i - 1);
  const helper = i === 0 ? undefined : pad(Math.floor(i / 2));
  if (parent !== undefined) lines.push(`import { Model${parent}, createModel${parent} } from './m${parent}';`);
  if (helper !== undefined && helper !== parent) lines.push(`import { helper${helper} } from './m${helper}';`);
  if (helper !== undefined && helper === parent) lines[1] = `import { Model${parent}, createModel${parent}, helper${helper} } from './m${parent}';`;
  const helperCall = helper === undefined ? `weigh('m${id}')` : `helper${helper}(value)`;
  lines.push(
    '',
    `/** A record of module ${i}. */`,
    `export interface Record${id} extends Entity {`,
    '  weight: number;',
    '  tags: string[];',
    '}',
    '',
    `/** The model of module ${i}. */`,
    `export class Model${id} implements Registry<Record${id}> {`,
    `  private readonly items = new Map<number, Record${id}>();`,
    parent === undefined ? '  private readonly parent: undefined;' : `  private readonly parent: Model${parent};`,
    '',
    parent === undefined ? '  constructor() {' : `  constructor(parent: Model${parent}) {`,
    parent === undefined ? '    this.parent = undefined;' : '    this.parent = parent;',
    '  }',
    '',
    `  add(item: Record${id}): Model${id} {`,
    '    this.items.set(item.id, item);',
    '    return this;',
    '  }',
    '',
    `  get(id: number): Record${id} | undefined {`,
    '    return this.items.get(id);',
    '  }',
    '',
    '  count(): number {',
    parent === undefined ? '    return this.items.size;' : '    return this.items.size + this.parent.count();',
    '  }',
    '',
    '  total(): number {',
    '    let sum = 0;',
    '    for (const item of this.items.values()) sum += item.weight * item.tags.length;',
    `    return sum + helper${id}(sum);`,
    '  }',
    '',
    `  byTag(tag: string): Record${id}[] {`,
    '    return [...this.items.values()].filter((item) => item.tags.includes(tag));',
    '  }',
    '}',
    '',
    `/** Scores a value for module ${i}. */`,
    `export function helper${id}(value: number): number {`,
    `  return value * ${(i % 7) + 2} + ${helperCall} + weigh('${id}');`,
    '}',
    '',
    `/** Builds the model of module ${i} with its parents. */`,
    `export function createModel${id}(): Model${id} {`,
    parent === undefined ? `  return new Model${id}();` : `  return new Model${id}(createModel${parent}());`,
    '}',
    '',
  );
  return lines.join('\n');
}

/**
 * Writes the project into `root` (created if missing).
 * @param root an empty directory
 * @returns the project description with probe positions
 */
export function generateProject(root: string): BenchProject {
  mkdirSync(join(root, 'src', 'core'), { recursive: true });
  mkdirSync(join(root, 'src', 'modules'), { recursive: true });
  const tsconfig = {
    compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, lib: ['ES2022'] },
    include: ['src'],
  };
  writeFileSync(join(root, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  writeFileSync(join(root, 'src', 'core', 'types.ts'), typesModule());
  for (let i = 0; i < MODULE_COUNT; i++) writeFileSync(join(root, 'src', 'modules', `m${pad(i)}.ts`), moduleSource(i));

  const last = pad(MODULE_COUNT - 1);
  const mid = pad(Math.floor(MODULE_COUNT / 2));
  const head = [
    `import type { Entity } from './core/types';`,
    `import { createModel${last}, helper${last} } from './modules/m${last}';`,
    `import { createModel${mid} } from './modules/m${mid}';`,
    '',
    `const service = createModel${last}();`,
    `const other = createModel${mid}();`,
    '',
    `export const first: Entity = { id: 1, name: 'first' };`,
    'export const count = service.count() + other.count();',
    `export const total = helper${last}(service.total());`,
    'export const tagged = service.byTag(first.name).length;',
  ];
  const errorLine = head.length;
  const tail = ['', 'export function describe(): string {', '  return `${first.name}: ${count} items, total ${total}, ${tagged} tagged, ${retries} retries`;', '}', ''];
  const appText = (value: number | undefined): string => [...head, errorLineText(value), ...tail].join('\n');
  const initialErrorValue = 3;
  const appPath = join(root, 'src', 'app.ts');
  writeFileSync(appPath, appText(initialErrorValue));

  const at = (line: number, needle: string, offset = 0): BenchPosition => {
    const character = head[line]?.indexOf(needle) ?? -1;
    if (character < 0) throw new Error(`generate-project: ${needle} not on line ${line}`);
    return { line, character: character + offset };
  };
  return {
    root,
    appPath,
    errorLine,
    appText,
    errorLineText,
    initialErrorValue,
    probes: {
      completion: at(8, 'service.', 'service.'.length),
      hover: at(8, 'service'),
      definition: at(10, 'byTag'),
      references: at(7, 'Entity'),
      signatureHelp: at(9, `helper${last}(`, `helper${last}(`.length),
    },
    symbolsPath: join(root, 'src', 'modules', `m${last}.ts`),
    formatPath: join(root, 'src', 'modules', `m${mid}.ts`),
  };
}
