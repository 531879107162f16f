// Phase A, as a person would: open the sample folder in code-server (the packed .vsix installed),
// wait for the extension's status bar item, open the files with errors, open the Problems panel,
// check its rows, open the quick-fix menu on the missing-import error, check its entry, choose it,
// and see the file change on disk. Screenshots (PNG) go to `out`.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';

const MINUTE = 60_000;

async function quickOpen(page, name) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: MINUTE });
  await input.fill(name); // without '>' the palette is Go to File
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout: MINUTE });
  await page.keyboard.press('Enter');
  await page.locator('.tab', { hasText: name }).first().waitFor({ timeout: MINUTE });
}

async function command(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: MINUTE });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: MINUTE });
  await page.keyboard.press('Enter');
}

/** Records the backend's process group so the runner can check it is gone after closing. */
function recordBackend(ws, pgidFile) {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const at = cmd.indexOf('serve');
      if (at >= 0 && cmd[at + 1] === '--workspace' && cmd[at + 2] === ws) {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        writeFileSync(pgidFile, `${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]}\n`, { flag: 'a' });
        return Number(pid);
      }
    } catch {}
  }
  return undefined;
}

export async function driveUi(options) {
  try {
    await drive(options);
  } catch (error) {
    const path = join(options.out, 'failure.png');
    await options.page.screenshot({ path }).catch(() => {});
    console.log(`screenshot of the failure: ${path}`);
    throw error;
  }
}

async function drive({ page, base, ws, out, pgidFile }) {
  const shot = async (name) => {
    await page.waitForTimeout(800); // toasts and menus fade in
    const path = join(out, name);
    await page.screenshot({ path });
    console.log(`screenshot: ${path}`);
  };
  // A loaded 2-core machine can take minutes to serve the workbench: generous bounds, no speed claims.
  page.setDefaultTimeout(2 * MINUTE);
  await page.goto(`${base}/?folder=${encodeURIComponent(ws)}`, { waitUntil: 'domcontentloaded', timeout: 3 * MINUTE });
  await page.locator('.monaco-workbench').waitFor({ timeout: 2 * MINUTE });
  const item = page.locator('.statusbar-item', { hasText: 'dsh-lsp-actions' });
  await item.first().waitFor({ state: 'visible', timeout: 3 * MINUTE });
  // The folder's own backend (node_modules/.bin) runs only once the user allows it: a toast asks.
  const trust = page.locator('.notification-toast', { hasText: 'contains its own dsh-lsp-actions backend' });
  await trust.first().waitFor({ state: 'visible', timeout: 3 * MINUTE });
  await shot('trust-prompt.png');
  assert.equal(recordBackend(ws, pgidFile), undefined, 'no backend runs before the user allowed it');
  await trust.first().locator('.monaco-button', { hasText: /^Allow$/ }).click();
  // The first-run offer: let dsh-lsp-actions own TypeScript/JavaScript problems, fixes and formatting.
  const offer = page.locator('.notification-toast', { hasText: 'Let dsh-lsp-actions own them in this workspace' });
  await offer.first().waitFor({ state: 'visible', timeout: 2 * MINUTE });
  await offer.first().locator('.monaco-button', { hasText: 'Use dsh-lsp-actions' }).click();
  await page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } });

  await quickOpen(page, 'report.ts');
  await quickOpen(page, 'main.ts');
  for (let i = 0; i < 240 && recordBackend(ws, pgidFile) === undefined; i++) await page.waitForTimeout(250);
  assert.ok(recordBackend(ws, pgidFile), 'a dsh-lsp-actions serve process runs for the folder');
  await page.keyboard.press('Control+Shift+M');
  const panel = page.locator('.markers-panel');
  await panel.first().waitFor({ state: 'visible', timeout: 15_000 }).catch(() => command(page, 'Focus on Problems View'));
  await panel.first().waitFor({ state: 'visible', timeout: MINUTE });
  const rows = page.locator('.markers-panel .monaco-list-row');
  const distance = rows.filter({ hasText: "Cannot find name 'distance'." });
  await distance.first().waitFor({ state: 'visible', timeout: 3 * MINUTE });
  await rows.filter({ hasText: "Cannot find name 'pointt'. Did you mean 'point'?" }).first().waitFor({ state: 'visible', timeout: 2 * MINUTE });
  await rows.filter({ hasText: "Type 'number' is not assignable to type 'string'." }).first().waitFor({ state: 'visible', timeout: 2 * MINUTE });
  const texts = await rows.allInnerTexts();
  const problems = texts.filter((t) => /typescript|ts\(/i.test(t) || /Cannot find|not assignable/.test(t));
  console.log(`Problems rows:\n  ${texts.map((t) => t.replace(/\s+/g, ' ')).join('\n  ')}`);
  assert.equal(problems.filter((t) => /Cannot find name 'distance'/.test(t)).length, 1, 'one row for the missing import (no duplicate from another checker)');
  assert.ok(texts.some((t) => /main\.ts/.test(t)) && texts.some((t) => /report\.ts/.test(t)), 'rows grouped under main.ts and report.ts');
  await item.first().waitFor({ state: 'visible' });
  await shot('problems-panel.png');

  // The status bar item's hover says how fresh the active file's problems are (the item reads
  // "dsh-lsp-actions: pending" until they are fresh).
  const ready = page.locator('.statusbar-item', { hasText: /^\s*dsh-lsp-actions\s*$/ });
  await ready.first().waitFor({ state: 'visible', timeout: 2 * MINUTE });
  await ready.first().hover();
  const hover = page.locator('.workbench-hover, .monaco-hover', { hasText: 'The backend is ready.' });
  await hover.first().waitFor({ state: 'visible', timeout: MINUTE });
  const hoverText = await hover.first().innerText();
  console.log(`Status bar hover:\n  ${hoverText.split('\n').join('\n  ')}`);
  assert.match(hoverText, /src\/main\.ts — 1 error, 0 warnings/);
  assert.match(hoverText, /fresh: the language server answered for the file as it is now/);
  await shot('status-bar-hover.png');
  await page.mouse.move(700, 300);

  // Go to the error from its row (select it, Enter), then open the quick-fix menu there (Ctrl+.).
  await distance.first().click();
  await page.keyboard.press('Enter');
  await page.waitForTimeout(1000);
  await page.keyboard.press('Control+.');
  const menu = page.locator('.action-widget');
  const entry = menu.locator('.action-widget-action, .monaco-list-row', { hasText: /Add import from "\.\/geometry(\.js)?"/ });
  const ourEntry = menu.locator('.action-widget-action, .monaco-list-row', { hasText: /Add import from "\.\/geometry(\.js)?" \(dsh-lsp-actions\)/ });
  await entry.first().waitFor({ state: 'visible', timeout: 2 * MINUTE });
  const menuText = await menu.first().innerText();
  console.log(`Quick-fix menu:\n  ${menuText.split('\n').join('\n  ')}`);
  // VS Code's built-in TypeScript extension is active too, but its fixes do not attach to our
  // problems: the fix is listed ONCE, marked as ours, and choosing it changes the file ON DISK.
  assert.equal(await entry.count(), 1, `one "Add import" entry:\n${menuText}`);
  assert.equal(await ourEntry.count(), 1, 'the entry is marked (dsh-lsp-actions)');
  assert.match(menuText, /Quick Fix/);
  await shot('quick-fix-menu.png');

  // Choose it: the backend writes the file; the row leaves the Problems panel.
  const before = readFileSync(join(ws, 'src', 'main.ts'), 'utf8');
  await entry.first().click();
  const deadline = Date.now() + 2 * MINUTE;
  while (readFileSync(join(ws, 'src', 'main.ts'), 'utf8') === before) {
    if (Date.now() > deadline) throw new Error('choosing the quick fix did not change src/main.ts on disk');
    await page.waitForTimeout(250);
  }
  assert.match(readFileSync(join(ws, 'src', 'main.ts'), 'utf8'), /^import \{ distance \} from ['"]\.\/geometry(\.js)?['"]/m);
  await distance.first().waitFor({ state: 'detached', timeout: 2 * MINUTE });
  await shot('after-quick-fix.png');
}
