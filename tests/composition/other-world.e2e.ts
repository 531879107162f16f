/**
 * The plugin composed with an execution world that is not this machine's (issue 19): files under
 * another root (a `dsh-fs-local` rooted in a temp directory) and a subprocess service that cannot
 * see this host's install — the repository, its `node_modules` and the Node binary running the
 * tests do not exist there (resolving or spawning anything under them fails as it would in a
 * sandbox or on a remote machine). With the default config the plugin must still load, its tools
 * must answer with an error naming what is missing and how to configure it, and the rest of the
 * composition must keep running.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { Context, type Plugin } from '@deepseek-ai/cordis';
import { LocalFileSystem } from '@deepseek-ai/dsh-fs-local';
import { CallId } from '@deepseek-ai/dsh-llm';
import type { SubprocessSpawnSpec } from '@deepseek-ai/dsh-subprocess';
import { LocalSubprocessRuntime } from '@deepseek-ai/dsh-subprocess-local';
import { SystemPrompt } from '@deepseek-ai/dsh-system-prompt';
import { defineTool, ToolRuntime } from '@deepseek-ai/dsh-tools';
import { textOf } from '../support/scripted-agent.ts';

const REPO = join(import.meta.dirname, '..', '..');
/** What does not exist in the other world: this checkout (with its node_modules) and the running Node. */
const HOST_ONLY = [realpathSync(REPO), dirname(realpathSync(process.execPath))];
const hostOnly = (command: string): boolean => HOST_ONLY.some((dir) => command === dir || command.startsWith(`${dir}/`));

/** A subprocess service whose world has no copy of this host's install. */
class OtherWorldSubprocess extends LocalSubprocessRuntime {
  override async resolveExecutable(command: string, env?: Readonly<Record<string, string>>, signal?: AbortSignal): Promise<string> {
    if (hostOnly(command)) throw new Error(`${command}: no such file in this execution world`);
    return super.resolveExecutable(command, env, signal);
  }

  override spawn(spec: SubprocessSpawnSpec): ReturnType<LocalSubprocessRuntime['spawn']> {
    const program = spec.argv[0] ?? '';
    if (hostOnly(program) || spec.argv.slice(1).some(hostOnly)) throw new Error(`${program}: no such file in this execution world`);
    return super.spawn(spec);
  }
}

/** Another plugin of the same composition: it must keep working. */
const echoPlugin = {
  name: 'echo-tool',
  inject: ['tools'],
  apply(ctx: Context) {
    ctx.tools.register(
      defineTool({
        name: 'echo',
        description: 'Echo.',
        parameters: { text: { type: 'string', required: true } },
        output: { schema: { type: 'object', additionalProperties: false, properties: { text: { type: 'string', required: true } } }, render: (_a, v) => [{ type: 'text', text: (v as { text: string }).text }] },
        async execute(args) {
          return { text: (args as { text: string }).text };
        },
      }),
    );
  },
} as unknown as Plugin;

test('default config in a world without this host\'s install: the plugin loads, its tools name what is missing, the composition keeps running', { timeout: 120_000 }, async (t) => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'lsp-actions-other-world-')));
  writeFileSync(join(root, 'a.ts'), "export const a: number = 'one';\n");
  const ctx = new Context();
  t.after(async () => {
    await ctx.fiber.dispose();
    rmSync(root, { recursive: true, force: true });
  });
  await ctx.plugin(SystemPrompt);
  await ctx.plugin(ToolRuntime);
  await ctx.plugin(LocalFileSystem, { cwd: root });
  await ctx.plugin(OtherWorldSubprocess as unknown as Plugin);
  const warnings: string[] = [];
  ctx.on('logger/log' as never, ((record: { type?: string; content?: string }) => void (record.type === 'warn' && warnings.push(String(record.content)))) as never);
  await ctx.plugin((await import('../../src/index.ts')) as unknown as Plugin, {});
  await ctx.plugin(echoPlugin);

  assert.ok(ctx.get('lspActions'), 'the plugin loaded and provides its service');
  assert.ok(ctx.tools.get('lsp_diagnostics'), 'its tools are registered');
  const agent = { id: 's1', session: { header: { id: 's1', cwd: root }, events: [] } };
  const result = await ctx.tools.execute({
    callId: CallId('diag'),
    name: 'lsp_diagnostics',
    arguments: { file_path: 'a.ts' },
    agent: agent as never,
    signal: new AbortController().signal,
  });
  const text = textOf(result.content);
  t.diagnostic(text);
  assert.equal(result.isError, true);
  assert.equal((result.error?.info as { code?: string } | undefined)?.code, 'LSP_ACTION_CONFIG_INVALID');
  assert.match(text, /default server "typescript" is not available in this execution world/);
  assert.match(text, /cannot resolve "[^"]+" to an executable/, 'names what is missing');
  assert.match(text, /Configure servers\.typescript .*typescript-language-server.*docs\/plugin\.md/, 'says how to configure it');

  const echoed = await ctx.tools.execute({ callId: CallId('echo'), name: 'echo', arguments: { text: 'still here' }, signal: new AbortController().signal });
  assert.equal(echoed.isError, false);
  assert.equal(textOf(echoed.content), 'still here');
});

test('a server the user configured that this world cannot resolve still fails the load, naming the key', { timeout: 120_000 }, async (t) => {
  const ctx = new Context();
  t.after(() => ctx.fiber.dispose());
  await ctx.plugin(SystemPrompt);
  await ctx.plugin(ToolRuntime);
  await ctx.plugin(LocalFileSystem, { cwd: tmpdir() });
  await ctx.plugin(OtherWorldSubprocess as unknown as Plugin);
  const plugin = (await import('../../src/index.ts')) as unknown as Plugin;
  await assert.rejects(
    async () => {
      await ctx.plugin(plugin, { servers: { typescript: { command: process.execPath } } });
    },
    /servers\.typescript\.command: cannot resolve/,
  );
  assert.equal(ctx.get('lspActions'), undefined, 'not loaded');
});
