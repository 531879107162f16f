/**
 * Facts about this package the command line prints and embeds: its name and version (read from
 * `package.json`, so `--version` and the SARIF `tool.driver.version` never drift from the
 * published manifest), and where its own plugin entry lives next to the CLI.
 */
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

interface Manifest {
  name: string;
  version: string;
  homepage?: string;
  engines?: { node?: string };
}

// src/cli/*.ts and lib/cli/*.js both sit two levels below the package root.
const manifest = require('../../package.json') as Manifest;

/** The npm package name (`dsh-lsp-actions`). */
export const PACKAGE_NAME: string = manifest.name;

/** The package version, as published. */
export const PACKAGE_VERSION: string = manifest.version;

/** Where users read about the tool (SARIF `informationUri`). */
export const INFORMATION_URI: string = manifest.homepage ?? `https://www.npmjs.com/package/${manifest.name}`;

/** The lowest Node version the harness runs on (`Promise.withResolvers` in the agent loop and subprocess provider). */
export const MIN_NODE = { major: 22, minor: 19 } as const;

/**
 * @param version a `process.versions.node` string such as `22.19.0`
 * @returns whether the harness can run on it (>= 22.19)
 */
export function nodeVersionSupported(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  return major > MIN_NODE.major || (major === MIN_NODE.major && minor >= MIN_NODE.minor);
}

/**
 * The plugin entry of this package, next to the CLI: `lib/index.js` when running the build,
 * `src/index.ts` when running the sources with Node's type stripping.
 * @returns an absolute `file:` URL the cordis Loader can import
 */
export function pluginEntryUrl(): string {
  const ext = extname(fileURLToPath(import.meta.url));
  return new URL(`../index${ext}`, import.meta.url).href;
}
