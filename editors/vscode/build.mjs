// Bundles the extension to one CommonJS file (dist/extension.js), as VS Code loads it; `vscode`
// stays external (the extension host provides it). Also bundles the extension-host test module.
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], sourcemap: true, logLevel: 'warning' };
await build({ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.cjs' });
await build({ ...common, entryPoints: ['test/host/host-tests.ts'], outfile: 'dist/test/host-tests.cjs' });
