/**
 * A tsserver plugin (loaded into `check --watch`'s tsserver as a global plugin, see
 * src/cli/signature-plugin-probe.ts) that answers one command, {@link DECLARATION_SIGNATURES_COMMAND}:
 * for each file asked, the hash of its declaration signature as `tsc --watch`'s builder computes
 * it — the `.d.ts` text of the file emitted alone (`getEmitOutput(file, emitOnlyDts, forceDtsEmit)`,
 * what BuilderState's `computeDtsSignature` emits, also under `noEmit` and without `declaration`)
 * plus the declaration emit's own diagnostics — and whether the file reaches other files without
 * an import (a script, `declare global`, `declare module`). An importer's problems depend on the
 * file only through these declarations: the builder's rule for skipping importers.
 *
 * Only the public plugin API is used (`PluginCreateInfo.session.addProtocolHandler`, the
 * project service's `getDefaultProjectForFile`, the language service's `getEmitOutput`). A file
 * the plugin cannot vouch for is answered `null` (the caller then re-checks as before): no
 * project, not a TypeScript source (`.d.ts` and JavaScript: the builder uses their version as the
 * signature), `removeComments` or `stripInternal` on (the `.d.ts` then leaves out what importers
 * in the same program still see: a JSDoc `@deprecated`, an `@internal` member), or no single
 * `.d.ts` emitted.
 *
 * A class member declared `private` is emitted as `private p;`, without its type, yet an
 * importer's `foo['p']` reads that type (`tsc --watch` misses such a change, measured). So a file
 * with one hashes, besides its `.d.ts`, the text of its private members and of its top-level
 * statements that are not exported (what a private member's type can depend on without the
 * `.d.ts` showing it; what it imports has its own signature, whose change re-checks this
 * file's importers too); such a file with a namespace gets no signature.
 *
 * Each answer also carries a hash of the file names of the file's program: a file joining or
 * leaving the program (an edit's new `import` of a script, a `/// <reference types>`) can
 * reach every file although no declaration changed.
 */
import { createHash } from 'node:crypto';
import type ts from 'typescript';

/** The tsserver command the plugin adds. Arguments `{ files: string[] }`. */
export const DECLARATION_SIGNATURES_COMMAND = 'dshDeclarationSignatures';

/** What the command answers per file asked (`null`: no signature the plugin can vouch for). */
export interface DeclarationSignature {
  /** sha256 of the `.d.ts` text (source map comment removed) and the declaration emit's diagnostics. */
  signature: string;
  /** The file's declarations reach other files without an import (a change reaches every file). */
  global: boolean;
  /** sha256 of the file names of the file's program. */
  program: string;
}

type Ts = typeof ts;

const TS_SOURCE = /\.(?:[cm]?ts|tsx)$/;
const DTS = /\.d\.[cm]?ts$/;

/**
 * @param typescript the server's TypeScript
 * @param file a source file of a program
 * @returns whether its declarations reach other files without an import — a superset of the
 *   builder's `isFileAffectingGlobalScope`: a script, or a module with a top-level
 *   `declare global` or `declare module "…"` (the builder counts only the first two)
 */
export function affectsGlobalScope(typescript: Ts, file: ts.SourceFile): boolean {
  if (!typescript.isExternalModule(file)) return true;
  return file.statements.some(
    (statement) => typescript.isModuleDeclaration(statement) && ((statement.flags & typescript.NodeFlags.GlobalAugmentation) !== 0 || typescript.isStringLiteral(statement.name)),
  );
}

/** @returns whether the node carries the modifier (read as a plain property: TypeScript 4.x has no `getModifiers`) */
function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return (node as { modifiers?: readonly ts.Node[] }).modifiers?.some((modifier) => modifier.kind === kind) === true;
}

/**
 * What a file's `.d.ts` leaves out of its `private` members' types.
 * @param typescript the server's TypeScript
 * @param file a source file
 * @returns '' without private members; else the text of each private member and of each
 *   top-level statement not exported; undefined when the file also has a namespace (whose inner
 *   statements would need the same care)
 */
export function privateSurface(typescript: Ts, file: ts.SourceFile): string | undefined {
  const privates: string[] = [];
  const visit = (node: ts.Node): void => {
    if (hasModifier(node, typescript.SyntaxKind.PrivateKeyword)) privates.push(node.getText(file));
    typescript.forEachChild(node, visit);
  };
  visit(file);
  if (privates.length === 0) return '';
  const statements = file.statements;
  if (statements.some((statement) => typescript.isModuleDeclaration(statement))) return undefined;
  const local = statements.filter(
    (statement) => !hasModifier(statement, typescript.SyntaxKind.ExportKeyword) && !typescript.isExportDeclaration(statement) && !typescript.isExportAssignment(statement),
  );
  return [...privates, ...local.map((statement) => statement.getText(file))].join('\n');
}

/** @returns sha256 of the program's file names, sorted */
export function programHash(program: ts.Program): string {
  const names = program.getSourceFiles().map((file) => file.fileName);
  return createHash('sha256').update(names.sort().join('\n')).digest('hex');
}

/**
 * @param typescript the server's TypeScript
 * @param project the file's project
 * @param fileName the file
 * @param programHashOf the hash of a program's file names (cached by the caller per request)
 * @returns its signature, or null when the plugin cannot vouch for one
 */
export function signatureOf(typescript: Ts, project: ts.server.Project, fileName: string, programHashOf: (program: ts.Program) => string = programHash): DeclarationSignature | null {
  if (!TS_SOURCE.test(fileName) || DTS.test(fileName)) return null;
  const settings = project.getCompilationSettings();
  if (settings.removeComments === true || settings.stripInternal === true) return null;
  const program = project.getLanguageService().getProgram();
  const file = program?.getSourceFile(fileName);
  if (program === undefined || file === undefined) return null;
  const privates = privateSurface(typescript, file);
  if (privates === undefined) return null;
  const output = project.getLanguageService().getEmitOutput(fileName, /* emitOnlyDtsFiles */ true, /* forceDtsEmit */ true);
  const declarations = output.outputFiles.filter((out) => DTS.test(out.name));
  if (declarations.length !== 1) return null;
  // the builder hashes the text without the source map comment, then the emit's diagnostics
  let text = (declarations[0] as ts.OutputFile).text.replace(/\n\/\/# sourceMappingURL=[^\n]*\s*$/, '\n');
  if (privates !== '') text += `\n/* private */\n${privates}`;
  for (const diagnostic of output.diagnostics) {
    const where = diagnostic.file === undefined ? '' : `${diagnostic.file.fileName}(${diagnostic.start},${diagnostic.length})`;
    text += `\n${where}${diagnostic.category}${diagnostic.code}: ${typescript.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  }
  return { signature: createHash('sha256').update(text).digest('hex'), global: affectsGlobalScope(typescript, file), program: programHashOf(program) };
}

/** The session's handler is added once per process (each project calls `create`). */
let registered = false;

/**
 * tsserver's plugin entry.
 * @param modules the server's modules
 * @returns the plugin (the language service is returned unchanged)
 */
export default function declarationSignaturePlugin(modules: { typescript: Ts }): ts.server.PluginModule {
  const typescript = modules.typescript;
  return {
    create(info: ts.server.PluginCreateInfo): ts.LanguageService {
      const session = info.session;
      if (registered || session === undefined) return info.languageService;
      registered = true;
      const service = info.project.projectService;
      session.addProtocolHandler(DECLARATION_SIGNATURES_COMMAND, (request) => {
        const args = request.arguments as { files?: unknown } | undefined;
        const files = Array.isArray(args?.files) ? args.files.filter((file): file is string => typeof file === 'string') : [];
        const body: Record<string, DeclarationSignature | null> = {};
        const hashes = new Map<ts.Program, string>();
        const programHashOf = (program: ts.Program): string => hashes.get(program) ?? (hashes.set(program, programHash(program)).get(program) as string);
        for (const file of files) {
          try {
            const project = service.getDefaultProjectForFile(typescript.server.toNormalizedPath(file), /* ensureProject */ false);
            body[file] = project === undefined ? null : signatureOf(typescript, project, file, programHashOf);
          } catch {
            // swallowed: a file the compiler cannot emit has no signature; the caller re-checks as before
            body[file] = null;
          }
        }
        return { response: body, responseRequired: true };
      });
      return info.languageService;
    },
  };
}
