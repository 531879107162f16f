/**
 * A writer process to kill: mounts the real harness (workspace-write) on argv[2] and applies one
 * edit renaming `shared` in `lib.ts` and `f0.ts`…`f59.ts` through the real FsWorkspaceWriter, each
 * file write slowed down by 20 ms so a SIGKILL lands mid-edit. The journal goes to
 * DSH_LSP_ACTIONS_STATE_DIR. Used by `journal-crash.e2e.ts`.
 */
import { FsWorkspaceWriter } from '../../src/edits/workspace-writer.ts';
import { mountHarness } from '../support/harness-mount.ts';
import { fileEdits, replace, workspaceEdit } from './workspace-fixture.ts';

const root = process.argv[2] ?? '';
const h = await mountHarness({ mode: 'workspace-write', workspace: root });
const fs = h.ctx.fs;
const slow = Object.create(fs, {
  writeText: {
    value: async (...args: Parameters<typeof fs.writeText>) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return fs.writeText(...args);
    },
  },
}) as typeof fs;
const names = ['lib.ts', ...Array.from({ length: 60 }, (_, i) => `f${i}.ts`)];
// lib.ts: `export const shared = 1;` (col 13); f<i>.ts: `import { shared } …` (col 9)
const edit = workspaceEdit(...names.map((name) => fileEdits(`${root}/src/${name}`, name === 'lib.ts' ? replace(0, 13, 0, 19, 'sharedRenamed') : replace(0, 9, 0, 15, 'sharedRenamed'))));
await new FsWorkspaceWriter(h.ctx, slow).apply({ root, edit, policy: h.ctx.sandboxPolicy.resolve() });
process.stdout.write('done\n');
await h.dispose();
