import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageVersion } from 'package-version';
import { describe, expect, it } from 'vitest';

/** A package folder `name@version` with a module two folders down; returns the module's URL. */
function fakePackage(root: string, manifest: string, below: string[] = ['dist', 'bundle']): string {
  mkdirSync(path.join(root, ...below), { recursive: true });
  writeFileSync(path.join(root, 'package.json'), manifest);
  return pathToFileURL(path.join(root, ...below, 'main.js')).href;
}

describe('packageVersion', () => {
  it("reads the named package's version, walking up past other package.json files", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'package-version-'));
    fakePackage(root, JSON.stringify({ name: 'outer', version: '3.2.1' }));
    const inner = path.join(root, 'node_modules', 'inner');
    const moduleUrl = fakePackage(inner, JSON.stringify({ name: 'inner', version: '1.0.0' }));
    // A package.json of another name, and one that is not JSON, between the module and its own.
    writeFileSync(path.join(inner, 'dist', 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(path.join(inner, 'dist', 'bundle', 'package.json'), '{ not json');
    expect(packageVersion(moduleUrl, 'inner')).toBe('1.0.0');
    expect(packageVersion(moduleUrl, 'outer')).toBe('3.2.1');
  });

  it('says it is a bug in the package when its package.json is not found', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'package-version-'));
    const moduleUrl = fakePackage(root, JSON.stringify({ name: 'other', version: '1.0.0' }));
    expect(() => packageVersion(moduleUrl, 'missing')).toThrow(
      `missing's package.json was not found above ${path.join(root, 'dist', 'bundle')}: this is a bug in missing`,
    );
  });

  it('is read once per package and module', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'package-version-'));
    const moduleUrl = fakePackage(root, JSON.stringify({ name: 'cached', version: '0.1.0' }));
    expect(packageVersion(moduleUrl, 'cached')).toBe('0.1.0');
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'cached', version: '9.9.9' }));
    expect(packageVersion(moduleUrl, 'cached')).toBe('0.1.0');
  });
});
