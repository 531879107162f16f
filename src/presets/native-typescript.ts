/**
 * The TypeScript/JavaScript server entry for a TypeScript 7 (or newer) workspace: that
 * TypeScript's own language server, `tsc --lsp --stdio` (pull diagnostics, UTF-8 positions),
 * in place of the embedded typescript-language-server + TypeScript 5.9. Same server id and the
 * same files as the embedded entry, so routing, `check` and the agent tools see one
 * `typescript` server whichever compiler is behind it. See docs/decisions/0031-typescript-7-native-server.md.
 */
import type { ServerConfig } from '../config.ts';
import { ServerConfig as ServerConfigSchema } from '../config.ts';
import { TYPESCRIPT_EXTENSIONS } from './embedded-typescript.ts';

/**
 * @param command the native `tsc` (or this Node, for the JS wrapper)
 * @param args leading arguments (the wrapper's path), before `--lsp --stdio`
 * @param rootMarkers the server's root markers (`check` passes tsconfig/jsconfig only)
 * @returns a complete, validated server entry
 */
export function nativeTypeScriptServer(command: string, args: readonly string[], rootMarkers: readonly string[] = ['tsconfig.json', 'jsconfig.json', 'package.json']): ServerConfig {
  return ServerConfigSchema({
    command,
    args: [...args, '--lsp', '--stdio'],
    extensionToLanguage: { ...TYPESCRIPT_EXTENSIONS },
    rootMarkers: [...rootMarkers],
    // Measured on 7.0.2: a pull for a file never opened is answered from disk through its
    // project (an inferred one outside every tsconfig); a missing file is an error answer.
    pullsUnopenedFiles: true,
  } as unknown as ServerConfig);
}
