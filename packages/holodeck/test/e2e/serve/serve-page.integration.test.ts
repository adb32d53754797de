import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chatReply, reply, toolUse } from '@holodeck/testkit';
import { launchChromium } from '@holodeck/testkit/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from '../both-backends/backend-variants.js';
import type { E2eAgent } from '../support/e2e-agent.js';
import { type ServeProcess, startServe } from './serve-harness.js';

// The built-in page of `holodeck serve` in the real headless Chromium, on both backends: a
// streamed answer, a tool call approved with a click, model text shown as text under a strict CSP.

const NOTES = `
import { appendFileSync } from 'node:fs';
export const saveNote = ({ text }) => {
  appendFileSync(new URL('./notes.log', import.meta.url), text + '\\n');
  return 'saved';
};
`;
const SAVE_NOTE = {
  type: 'function',
  name: 'save_note',
  description: 'Saves a note',
  file: 'notes.mjs',
  function: 'saveNote',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

describe.each(backendVariants())('holodeck serve: the page in Chromium ($name backend)', (variant) => {
  let server: ServeProcess;
  let agent: E2eAgent;
  let browser: Browser;
  beforeAll(async () => {
    await variant.start();
    agent =
      variant.name === 'claude'
        ? variant.agent({ claude: { working_directory: '.', file_system: { write: true } } })
        : variant.agent({ tools: [SAVE_NOTE] }, { 'notes.mjs': NOTES });
    server = await startServe(agent);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await variant.close();
  });

  it('streams an answer, shows model text as text, and approves a tool call with a click', async () => {
    const hostile = '<img src=x onerror="document.title=\'pwned\'"> **bold**';
    const call =
      variant.name === 'claude'
        ? toolUse('Write', { file_path: 'page.log', content: 'from the page' })
        : variant.callTool('save_note', { text: 'from the page' });
    variant.script(
      variant.name === 'claude'
        ? reply(hostile, { chunkDelayMs: 20 })
        : chatReply(hostile, { chunkDelayMs: 20 }),
      call,
      variant.reply('Saved it.'),
    );
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto(`${server.url}/`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    await page.waitForSelector('html[data-ready="true"]', { timeout: 15_000 });
    expect(await page.title()).toBe('e2e-agent · holodeck serve');

    await page.fill('#message', 'Say something odd');
    await page.click('button[type=submit]');
    await page.waitForSelector('.entry.agent', { timeout: 20_000 });
    await page.waitForSelector('#ask[data-busy="false"]', { state: 'attached', timeout: 20_000 });
    expect(await page.textContent('.entry.agent')).toBe(hostile);
    expect(await page.locator('#log img').count()).toBe(0);
    expect(await page.title()).not.toBe('pwned');

    await page.fill('#message', 'Save a note');
    await page.click('button[type=submit]');
    await page.waitForSelector('.entry.approval button[data-decision=allow]', { timeout: 20_000 });
    expect(await page.textContent('.entry.approval')).toContain('needs your approval');
    await page.click('.entry.approval button[data-decision=allow]');
    await page.waitForSelector('.entry.tool.done', { timeout: 20_000 });
    await page.waitForSelector('#ask[data-busy="false"]', { state: 'attached', timeout: 20_000 });
    const answers = await page.locator('.entry.agent').allTextContents();
    expect(answers.at(-1)).toBe('Saved it.');
    const file = variant.name === 'claude' ? 'page.log' : 'notes.log';
    expect(readFileSync(path.join(agent.directory, file), 'utf8')).toContain('from the page');
    expect(errors).toEqual([]);
    await page.close();
    variant.checkAndReset();
  });
});
