import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Context } from '@deepseek-ai/cordis';
import { LocalFileSystem } from '@deepseek-ai/dsh-fs-local';
import { SystemPrompt } from '@deepseek-ai/dsh-system-prompt';
import { ToolRuntime } from '@deepseek-ai/dsh-tools';
import type { ActionRunner } from '../../src/actions/action-runner.ts';
import { SandboxWriteAuthorizer } from '../../src/permission/sandbox-write-authorizer.ts';
import type { WriteAuthorizer } from '../../src/permission/write-authorizer-types.ts';
import { NAVIGATION_TOOL_NAMES } from '../../src/tools/navigation-tools.ts';
import { LSP_TOOL_NAMES, registerLspTools } from '../../src/tools/register-lsp-tools.ts';
import { mountHarness } from '../support/harness-mount.ts';
import { stubRunner, toolDeps } from './tool-fixtures.ts';

const WRITE_TOOLS = ['lsp_format', 'lsp_code_action', 'lsp_organize_imports', 'lsp_rename'];

/** Expected parameters of each tool (escalation fields excluded): name → required. */
const PARAMETERS: Record<string, Record<string, boolean>> = {
  lsp_diagnostics: { file_path: false, file_paths: false, changes_only: false },
  lsp_format: { file_path: true, start_line: false, start_character: false, end_line: false, end_character: false },
  lsp_completion: { file_path: true, line: true, character: true },
  lsp_code_action: { file_path: true, start_line: false, start_character: false, end_line: false, end_character: false, kind: false, title: false, index: false },
  lsp_organize_imports: { file_path: true },
  lsp_rename: { file_path: true, line: true, character: true, new_name: true },
  lsp_symbols: { file_path: false, query: false },
  lsp_signature: { file_path: true, line: true, character: true },
  lsp_inlay_hints: { file_path: true, start_line: false, start_character: false, end_line: false, end_character: false },
  lsp_definition: { file_path: false, line: false, character: false, symbol: false },
  lsp_references: { file_path: false, line: false, character: false, symbol: false },
  lsp_hover: { file_path: false, line: false, character: false, symbol: false },
  lsp_implementation: { file_path: false, line: false, character: false, symbol: false },
  lsp_call_hierarchy: { file_path: false, line: false, character: false, symbol: false, direction: false },
  lsp_workspace_symbols: { query: true },
};

/** Every tool the plugin registers by default. */
const ALL_TOOLS = [...LSP_TOOL_NAMES, ...NAVIGATION_TOOL_NAMES];

/** Mounts dsh-tools and the tools as a child plugin; returns the context and the plugin's fiber. */
async function mount(authorizer: Pick<WriteAuthorizer, 'canEscalate'>, base?: Context, navigation = true) {
  let ctx = base;
  if (!ctx) {
    ctx = new Context();
    await ctx.plugin(SystemPrompt);
    await ctx.plugin(ToolRuntime);
  }
  const deps = toolDeps(stubRunner(() => ({})));
  deps.config.navigation = navigation;
  const fiber = ctx.plugin({
    name: 'lsp-tools-under-test',
    inject: ['tools'],
    apply: (c: Context) => registerLspTools(c, { runner: deps.runner as ActionRunner, authorizer: authorizer as WriteAuthorizer, config: deps.config }),
  });
  await fiber;
  return { ctx, fiber, config: deps.config };
}

describe('registerLspTools', () => {
  it('registers every tool with its parameters, one-based positions and the config timeout', async () => {
    const { ctx, config } = await mount({ canEscalate: false });
    const schemas = ctx.tools.schemas();
    assert.deepEqual(schemas.map((s) => s.name).sort(), [...ALL_TOOLS].sort());
    for (const schema of schemas) {
      const params = schema.parameters as { properties: Record<string, { description?: string }>; required?: string[] };
      const expected = PARAMETERS[schema.name] ?? {};
      assert.deepEqual(Object.keys(params.properties).sort(), Object.keys(expected).sort(), schema.name);
      assert.deepEqual([...(params.required ?? [])].sort(), Object.keys(expected).filter((k) => expected[k]).sort(), schema.name);
      for (const [key, prop] of Object.entries(params.properties)) assert.ok(prop.description, `${schema.name}.${key} has a description`);
      if (params.properties.line) assert.match(params.properties.line.description ?? '', /one-based/i);
      assert.equal(ctx.tools.get(schema.name)?.timeoutMs, config.timeoutMs, schema.name);
      assert.ok(schema.description.length > 40, schema.name);
    }
    await ctx.root.fiber.dispose();
  });

  it('advertises sandbox_permissions + justification on the write tools only when the authorizer can escalate', async () => {
    const { ctx } = await mount({ canEscalate: true });
    for (const schema of ctx.tools.schemas()) {
      const props = (schema.parameters as { properties: Record<string, { enum?: string[] }> }).properties;
      const writes = WRITE_TOOLS.includes(schema.name);
      assert.equal('sandbox_permissions' in props, writes, schema.name);
      assert.equal('justification' in props, writes, schema.name);
      if (writes) assert.deepEqual(props.sandbox_permissions?.enum, ['workspace-write', 'danger-full-access']);
    }
    await ctx.root.fiber.dispose();
  });

  it('removes every tool when the plugin fiber is disposed', async () => {
    const { ctx, fiber } = await mount({ canEscalate: true });
    assert.equal(ctx.tools.schemas().length, ALL_TOOLS.length);
    await fiber.dispose();
    assert.deepEqual(ctx.tools.schemas(), []);
    for (const name of ALL_TOOLS) assert.equal(ctx.tools.get(name), undefined, name);
    await ctx.root.fiber.dispose();
  });

  it('leaves the navigation tools out with navigation: false (a composition with the harness LSP tool)', async () => {
    const { ctx } = await mount({ canEscalate: false }, undefined, false);
    assert.deepEqual(ctx.tools.schemas().map((s) => s.name).sort(), [...LSP_TOOL_NAMES].sort());
    for (const name of NAVIGATION_TOOL_NAMES) assert.equal(ctx.tools.get(name), undefined, name);
    await ctx.root.fiber.dispose();
  });
});

/** @returns whether lsp_format advertises the escalation pair */
function advertised(ctx: Context): boolean {
  const schema = ctx.tools.schemas().find((s) => s.name === 'lsp_format');
  assert.ok(schema);
  return 'sandbox_permissions' in (schema.parameters as { properties: object }).properties;
}

describe('escalation fields follow the real fs backend', () => {
  let workspace: string;
  before(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'lsp-tools-fs-'));
  });
  after(async () => {
    await rm(workspace, { recursive: true, force: true });
  });

  it('a confining fs (dsh-fs-sandbox) advertises them', async () => {
    const harness = await mountHarness({ mode: 'read-only', workspace });
    await mount(new SandboxWriteAuthorizer(harness.ctx), harness.ctx);
    assert.equal(advertised(harness.ctx), true);
    await harness.dispose();
  });

  it('a non-confining fs (dsh-fs-local) does not', async () => {
    const ctx = new Context();
    await ctx.plugin(SystemPrompt);
    await ctx.plugin(ToolRuntime);
    await ctx.plugin(LocalFileSystem, { cwd: workspace });
    await mount(new SandboxWriteAuthorizer(ctx), ctx);
    assert.equal(advertised(ctx), false);
    await ctx.root.fiber.dispose();
  });
});
