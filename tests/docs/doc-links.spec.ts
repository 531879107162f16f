/**
 * Every relative link in the project's Markdown resolves — to a file or folder of the repository
 * and, for `page.md#anchor`, to a heading of that page (GitHub's anchor rules) — and every page
 * under docs/ can be reached from the README by following links, so none is orphaned.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const root = resolve(import.meta.dirname, '..', '..');

function markdownUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const PAGES = ['README.md', ...markdownUnder('docs'), 'editors/vscode/README.md', 'examples/acp/README.md', 'examples/sample/README.md'];

/** Markdown text without fenced code blocks. */
function withoutFences(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The `[text](target)` targets of a page, relative ones only. */
export function relativeLinks(text: string): string[] {
  // Links inside code (fenced blocks, inline spans) are not links.
  const prose = withoutFences(text).replace(/`[^`\n]*`/g, '');
  const targets = [...prose.matchAll(/\]\(\s*([^)\s]+)(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? '');
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** GitHub's anchors for a page's headings (lowercase, punctuation dropped, spaces → '-', duplicates numbered). */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of withoutFences(text).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = (heading ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

test('every relative link in README.md, docs/ and the other READMEs resolves', () => {
  const broken: string[] = [];
  for (const page of PAGES) {
    const text = readFileSync(join(root, page), 'utf8');
    for (const link of relativeLinks(text)) {
      const [pathPart = '', anchor] = link.split('#', 2);
      const target = pathPart === '' ? join(root, page) : resolve(root, dirname(page), decodeURI(pathPart));
      if (!target.startsWith(root + '/') || !existsSync(target)) {
        broken.push(`${page}: ${link} (no such file in the repository)`);
        continue;
      }
      if (anchor !== undefined && anchor !== '' && target.endsWith('.md') && statSync(target).isFile()) {
        if (!anchorsOf(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${page}: ${link} (no heading with that anchor)`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test('every page under docs/ is reachable from README.md', () => {
  const reached = new Set<string>(['README.md']);
  const queue = ['README.md'];
  while (queue.length > 0) {
    const page = queue.shift() ?? '';
    for (const link of relativeLinks(readFileSync(join(root, page), 'utf8'))) {
      const pathPart = link.split('#', 1)[0] ?? '';
      if (pathPart === '') continue;
      let target = resolve(root, dirname(page), decodeURI(pathPart));
      if (existsSync(target) && statSync(target).isDirectory()) target = join(target, 'README.md');
      const rel = relative(root, target);
      if (rel.endsWith('.md') && existsSync(target) && !reached.has(rel)) {
        reached.add(rel);
        queue.push(rel);
      }
    }
  }
  const orphans = markdownUnder('docs').filter((page) => !reached.has(page));
  assert.deepEqual(orphans, []);
});

test('the VS Code extension README has no relative links (vsce package refuses them: its repository URL is no GitHub/GitLab one)', () => {
  assert.deepEqual(relativeLinks(readFileSync(join(root, 'editors', 'vscode', 'README.md'), 'utf8')), []);
});

test('the link reader finds links, skips code, and computes GitHub anchors', () => {
  assert.deepEqual(relativeLinks('see [a](docs/a.md#x) and [b](https://e.org) `[c](no.md)`\n```\n[d](no.md)\n```\n[e](../f.md "title")'), ['docs/a.md#x', '../f.md']);
  assert.deepEqual([...anchorsOf('# 7. Error codes\n## `serve`\n## check: which compiler\n## A\n## A')], ['7-error-codes', 'serve', 'check-which-compiler', 'a', 'a-1']);
});
