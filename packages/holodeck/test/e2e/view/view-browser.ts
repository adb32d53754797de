import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@holodeck/testkit/browser';
import type { Browser, Page } from 'playwright-core';

const REPO = fileURLToPath(new URL('../../../../../', import.meta.url));
/** Screenshots of the page tests, kept as CI artifacts (git-ignored). */
export const ARTIFACTS = path.join(REPO, 'test-artifacts', 'view');

/**
 * Saves a full-page screenshot under test-artifacts/view/; with UPDATE_SCREENSHOTS=1 also as
 * docs/images/<name>.png, the README's picture.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { docs?: boolean } = {},
): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (options.docs && process.env.UPDATE_SCREENSHOTS === '1') {
    mkdirSync(path.join(REPO, 'docs', 'images'), { recursive: true });
    copyFileSync(file, path.join(REPO, 'docs', 'images', `${name}.png`));
  }
  return file;
}

/** Waits until the script has drawn the page. */
export async function drawn(page: Page): Promise<void> {
  await page.waitForSelector('html[data-ready="true"]', { timeout: 15_000 });
}

/** The real headless Chromium of testkit (it serialises the binary's first unpacking itself). */
export const launchBrowser = (): Promise<Browser> => launchChromium();
