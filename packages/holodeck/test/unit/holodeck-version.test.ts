import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { holodeckVersion } from '../../src/holodeck-version.js';

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { version } = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  version: string;
};

function files(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const full = path.join(directory, entry);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

describe('holodeckVersion', () => {
  it("is package.json's version", () => {
    expect(holodeckVersion()).toBe(version);
  });

  it('is written nowhere else in src/ or bin/', () => {
    const literal = new RegExp(`['"\`/]${version.replaceAll('.', '\\.')}['"\`]`);
    const copies = [...files(path.join(PACKAGE_ROOT, 'src')), ...files(path.join(PACKAGE_ROOT, 'bin'))]
      .filter((file) => /\.(ts|js|mjs|cjs)$/.test(file))
      .filter((file) => literal.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(PACKAGE_ROOT, file));
    expect(copies).toEqual([]);
  });
});
