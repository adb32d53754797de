import chromium from '@sparticuz/chromium';
import { type Browser, chromium as playwright } from 'playwright-core';

/**
 * Flags for a headless Chromium on a closed network, as root: without the background-networking
 * flags Chromium keeps trying (and failing) to reach Google's hosts. The package's own
 * `chromium.args` are not used: they turn off web security and allow insecure content, which
 * would hide exactly what page tests check (CSP, same-origin rules).
 */
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--no-zygote',
  '--disable-gpu',
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-domain-reliability',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--no-pings',
];

/**
 * Starts a real headless Chromium (the binary shipped in `@sparticuz/chromium`, unpacked to the
 * temporary folder on first use) driven by playwright-core. No browser download happens.
 */
export async function launchChromium(): Promise<Browser> {
  let executablePath: string;
  try {
    executablePath = await chromium.executablePath();
  } catch (error) {
    throw new Error(
      `Could not unpack the Chromium of @sparticuz/chromium (${String(error)}). Install it with \`npm ci\` at the repository root.`,
    );
  }
  return playwright.launch({ executablePath, args: CHROMIUM_FLAGS, headless: true });
}
