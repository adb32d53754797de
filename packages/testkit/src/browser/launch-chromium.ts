import { mkdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

const LOCK = path.join(os.tmpdir(), 'testkit-chromium-unpack.lock');
const LOCK_WAIT_MS = 120_000;
/** A lock older than this was left by a process that died while unpacking. */
const STALE_LOCK_MS = 60_000;

/**
 * Runs `work` while holding a lock shared by every process on the machine. @sparticuz/chromium
 * unpacks its binary to the temporary folder on first use and returns at once when the file
 * exists, so a second test process could spawn a half-written binary (spawn ETXTBSY).
 */
async function withUnpackLock<T>(work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      else if (Date.now() > deadline)
        throw new Error(`another process holds ${LOCK}; remove it if none runs`);
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/**
 * Starts a real headless Chromium (the binary shipped in `@sparticuz/chromium`, unpacked to the
 * temporary folder on first use) driven by playwright-core. No browser download happens.
 */
export async function launchChromium(): Promise<Browser> {
  let executablePath: string;
  try {
    executablePath = await withUnpackLock(() => chromium.executablePath());
  } catch (error) {
    throw new Error(
      `Could not unpack the Chromium of @sparticuz/chromium (${String(error)}). Install it with \`npm ci\` at the repository root.`,
    );
  }
  return playwright.launch({ executablePath, args: CHROMIUM_FLAGS, headless: true });
}
