import { existsSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../errors.js';
import type { TemplateFile } from './init-template.js';
import { shownPath } from './plan-agent-folder.js';

/**
 * Writes the files into `directory` (created when missing). Never overwrites: when any file
 * already exists nothing is written and the UsageError names every one of them; each file is
 * also opened with `wx`, so one made in between is not overwritten either.
 */
export async function writeAgentFolder(directory: string, files: readonly TemplateFile[]): Promise<string[]> {
  if (existsSync(directory) && !statSync(directory).isDirectory())
    throw new UsageError('[DIR]', `${directory} is a file, not a folder`, 'name a new or existing folder');
  const existing = files.filter((file) => existsSync(path.join(directory, file.path)));
  if (existing.length) {
    const names = existing.map((file) => shownPath(directory, file.path));
    throw new UsageError(
      'init',
      `${names.join(', ')} already ${names.length === 1 ? 'exists' : 'exist'}: holodeck init never overwrites a file, and wrote nothing`,
      'pick another folder (holodeck init my-agent), or move those files away first',
    );
  }
  const written: string[] = [];
  for (const file of files) {
    const target = path.join(directory, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await writeFile(target, file.content, { flag: 'wx' });
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'EEXIST')
        throw new UsageError(
          'init',
          `${shownPath(directory, file.path)} appeared while holodeck init was writing: it was left as it is`,
          'run holodeck init again in an empty folder',
        );
      throw error;
    }
    written.push(file.path);
  }
  return written;
}
