import { pathToFileURL } from 'node:url';

/**
 * Imports a user's module (a function tool, a `code` grader): TypeScript through tsx's loader,
 * scoped to this one import; JavaScript with Node's own import().
 *
 * This file is left out of the CLI bundle (scripts/bundle-cli.mjs): the bundle is CommonJS run
 * from a vm.Script, where import() is not available without an experimental flag, so the bundle
 * reaches Node's real import() through this ES module.
 */
export async function importUserModule(file: string): Promise<Record<string, unknown>> {
  const module: unknown = /\.[cm]?ts$/.test(file)
    ? await (await import('tsx/esm/api')).tsImport(pathToFileURL(file).href, import.meta.url)
    : await import(pathToFileURL(file).href);
  return typeof module === 'object' && module !== null ? (module as Record<string, unknown>) : {};
}
