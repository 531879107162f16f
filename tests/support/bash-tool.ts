/**
 * A shell tool as agent harnesses offer one (the DSH shell tool is not on npm at rc.8): `bash`
 * runs `command` with `sh -c` in the session's workspace and returns its exit status and output.
 * Edit feedback does not follow it: what it changes on disk is seen only through the watcher.
 */
import { spawnSync } from 'node:child_process';
import type { Context, Plugin } from '@deepseek-ai/cordis';
import { defineTool } from '@deepseek-ai/dsh-tools';

/** The plugin registering `bash`. */
export const bashToolPlugin = {
  name: 'test-bash-tool',
  inject: ['tools'],
  apply(ctx: Context) {
    ctx.tools.register(
      defineTool({
        name: 'bash',
        description: 'Run a shell command in the workspace.',
        parameters: { command: { type: 'string', required: true } },
        output: {
          schema: { type: 'object', additionalProperties: false, properties: { status: { type: 'integer', required: true }, output: { type: 'string', required: true } } },
          render: (_args, value) => [{ type: 'text', text: `exit ${String((value as { status: number }).status)}\n${(value as { output: string }).output}` }],
        },
        async execute(args, exec) {
          const cwd = exec.agent?.session.header.cwd;
          const r = spawnSync('sh', ['-c', (args as { command: string }).command], { cwd, encoding: 'utf8' });
          return { status: r.status ?? -1, output: `${r.stdout}${r.stderr}` };
        },
      }),
    );
  },
} as unknown as Plugin;
