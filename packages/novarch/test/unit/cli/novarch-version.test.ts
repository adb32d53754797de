import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { novarchVersion } from '../../../src/novarch-version.js';
import { buildOpenApiDocument } from '../../../src/server/build-openapi-document.js';
import { runNovarch } from './run-novarch-in-process.js';

const packageJson = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('the version', () => {
  it('is read from package.json, the one place it is written', () => {
    expect(novarchVersion()).toBe(packageJson.version);
  });

  it('is what `novarch --version` prints and what the OpenAPI document gives', async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'novarch-version-'));
    const result = await runNovarch(['--version'], { cwd });
    expect(result).toMatchObject({ code: 0, stdout: `${packageJson.version}\n` });
    const document = buildOpenApiDocument([]) as { info: { version: string } };
    expect(document.info.version).toBe(packageJson.version);
  });
});
