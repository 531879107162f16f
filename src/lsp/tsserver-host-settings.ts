/**
 * What a tsserver host tells tsserver, as typescript-language-server 5.3.0 tells it (read from
 * its source), so that tsserver driven directly by {@link TsserverBridge} judges files exactly as
 * it does under that server: the command-line flags, the compiler options of inferred projects
 * (files in no tsconfig program: `check --include-unconfigured`), the script kind per language
 * id, and the `configure` request.
 */

/**
 * tsserver's flags as typescript-language-server passes them for its one semantic server with
 * automatic type acquisition off, minus the two that belong to its transport: `--useNodeIpc`
 * (TypeScript ≥ 4.9; the bridge speaks stdio, which every tsserver speaks) and
 * `--cancellationPipeName` (a cancelled request's answer is dropped instead).
 */
export const TSSERVER_FLAGS = ['--useInferredProjectPerProjectRoot', '--disableAutomaticTypingAcquisition', '--locale', 'en', '--validateDefaultNpmLocation'] as const;

/** typescript-language-server's `implicitProjectConfiguration` defaults. */
const DEFAULT_IMPLICIT = { checkJs: false, experimentalDecorators: false, module: 'esnext', strict: true, strictFunctionTypes: true, strictNullChecks: true, target: 'es2024' };

/** The workspace settings that shape inferred projects (`implicitProjectConfiguration`). */
export type ImplicitProjectConfiguration = Partial<typeof DEFAULT_IMPLICIT>;

/**
 * @param version a TypeScript version (`5.9.3`)
 * @param major the major it must reach
 * @param minor the minor it must reach
 * @returns whether `version` is at least `major.minor` (an unparsable version counts as new)
 */
export function versionAtLeast(version: string, major: number, minor: number): boolean {
  const [a, b] = version.split('.').map((part) => Number.parseInt(part, 10));
  if (a === undefined || Number.isNaN(a)) return true;
  return a > major || (a === major && (b ?? 0) >= minor);
}

/**
 * @param version the TypeScript version tsserver is
 * @param settings the workspace's `implicitProjectConfiguration` (over the defaults)
 * @returns the `compilerOptionsForInferredProjects` options typescript-language-server sends
 */
export function inferredProjectOptions(version: string, settings: ImplicitProjectConfiguration = {}): Record<string, unknown> {
  const config = { ...DEFAULT_IMPLICIT, ...settings };
  const modern = versionAtLeast(version, 5, 4);
  const options: Record<string, unknown> = {
    module: modern ? 'preserve' : 'esnext',
    moduleResolution: modern ? 'bundler' : 'node',
    target: 'es2022',
    jsx: 'react-jsx',
  };
  if (versionAtLeast(version, 5, 0)) options['allowImportingTsExtensions'] = true;
  if (config.checkJs) Object.assign(options, { checkJs: true, allowJs: true });
  if (config.experimentalDecorators) options['experimentalDecorators'] = true;
  if (config.strictNullChecks) options['strictNullChecks'] = true;
  if (config.strictFunctionTypes) options['strictFunctionTypes'] = true;
  if (config.strict) options['strict'] = true;
  if (config.module) options['module'] = config.module;
  if (config.target) options['target'] = config.target;
  options['sourceMap'] = true;
  return { ...options, allowJs: true, allowNonTsExtensions: true, allowSyntheticDefaultImports: true, resolveJsonModule: true };
}

/** LSP language id → tsserver `scriptKindName`. */
const SCRIPT_KINDS: Record<string, string> = { typescript: 'TS', typescriptreact: 'TSX', javascript: 'JS', javascriptreact: 'JSX' };

/**
 * @param languageId an LSP language id
 * @returns the script kind tsserver is told on open (undefined: tsserver infers it from the name)
 */
export function scriptKindName(languageId: string): string | undefined {
  return SCRIPT_KINDS[languageId];
}

/**
 * @param preferences tsserver preferences from the server entry's `initializationOptions.preferences`
 * @returns the arguments of the global `configure` request
 */
export function configureArguments(preferences: Record<string, unknown>): Record<string, unknown> {
  return { hostInfo: 'dsh-lsp-actions', formatOptions: { newLineCharacter: '\n' }, preferences };
}
