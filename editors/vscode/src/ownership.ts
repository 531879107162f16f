/**
 * Who shows problems and fixes for a document (docs/decisions/0061-vscode-coexistence.md): for
 * TypeScript and JavaScript, VS Code's built-in extension does as long as its validation is on
 * for that language; once it is off (the first-run offer turns it off for the workspace), this
 * extension owns them — problems, quick fixes, Format, Rename, Organize Imports. Every other
 * language the backend serves is always ours. Pure apart from reading two settings.
 */
import * as vscode from 'vscode';

/** The languages VS Code's built-in TypeScript/JavaScript extension checks, by its setting section. */
export const BUILTIN_LANGUAGES: Readonly<Record<string, 'typescript' | 'javascript'>> = {
  typescript: 'typescript',
  typescriptreact: 'typescript',
  javascript: 'javascript',
  javascriptreact: 'javascript',
};

/** Other languages the backend serves out of the box (its presets). */
export const OTHER_SERVED_LANGUAGES: readonly string[] = ['python'];

/**
 * @param section `typescript` or `javascript`
 * @param scope the document (language-specific and folder settings apply)
 * @returns whether the built-in extension's validation is on there
 */
export function builtinValidates(section: 'typescript' | 'javascript', scope?: vscode.TextDocument): boolean {
  return vscode.workspace.getConfiguration(section, scope).get<boolean>('validate.enable', true);
}

/**
 * @param document a document
 * @returns whether this extension shows its problems and fixes (false: the built-in does)
 */
export function ownsDocument(document: vscode.TextDocument): boolean {
  const section = BUILTIN_LANGUAGES[document.languageId];
  return section === undefined || !builtinValidates(section, document);
}

/** @returns the language ids this extension currently owns (for provider selectors) */
export function ownedLanguages(): string[] {
  const owned = Object.entries(BUILTIN_LANGUAGES)
    .filter(([, section]) => !builtinValidates(section))
    .map(([language]) => language);
  return [...owned, ...OTHER_SERVED_LANGUAGES];
}

/**
 * @param languages language ids
 * @returns a document selector for files of those languages
 */
export function selectorFor(languages: readonly string[]): vscode.DocumentFilter[] {
  return languages.map((language) => ({ scheme: 'file', language }));
}

const EXTENSION_LANGUAGE: Readonly<Record<string, 'typescript' | 'javascript'>> = {
  '.ts': 'typescript',
  '.tsx': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.js': 'javascript',
  '.jsx': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
};

/**
 * @param uri a file, open or not
 * @returns whether this extension shows its problems (the open document's language decides; else the file extension)
 */
export function ownsPath(uri: vscode.Uri): boolean {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open !== undefined) return ownsDocument(open);
  const dot = uri.path.lastIndexOf('.');
  const section = dot < 0 ? undefined : EXTENSION_LANGUAGE[uri.path.slice(dot).toLowerCase()];
  return section === undefined || !builtinValidates(section);
}
