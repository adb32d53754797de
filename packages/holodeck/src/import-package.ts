/**
 * Imports an installed package with Node's own import(), for packages that only an ES module
 * can load (a top-level await, as in libxml2-wasm's WASM start-up) and that only some runs need.
 *
 * Like import-module.ts, this file is left out of the CLI bundle (scripts/bundle-cli.mjs): the
 * bundle is CommonJS run from a vm.Script, where import() is not available.
 */
export async function importPackage(name: 'libxml2-wasm'): Promise<typeof import('libxml2-wasm')> {
  return import(name);
}
