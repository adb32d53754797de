import { lstatSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { SideEffectPlan } from './side-effect-policy.js';

/** Never copied: the runs and caches of `holodeck test` itself. */
const HOLODECK_FOLDER = '.holodeck';
/** Not copied unless asked: installed dependencies, often the largest folder of all. */
const DEPENDENCIES_FOLDER = 'node_modules';

/** The `.gitignore` rules found so far, by the folder that holds them. */
class GitignoreRules {
  private readonly byFolder = new Map<string, Ignore | undefined>();

  constructor(private readonly root: string) {}

  /** Whether `file` (absolute, inside root) is ignored by a `.gitignore` of root or a folder below it. */
  ignores(file: string, isDirectory: boolean): boolean {
    let folder = path.dirname(file);
    for (;;) {
      const rules = this.rulesOf(folder);
      const relative = path.relative(folder, file).split(path.sep).join('/');
      if (rules?.ignores(isDirectory ? `${relative}/` : relative)) return true;
      if (folder === this.root || !folder.startsWith(this.root)) return false;
      folder = path.dirname(folder);
    }
  }

  private rulesOf(folder: string): Ignore | undefined {
    if (!this.byFolder.has(folder)) {
      let text: string | undefined;
      try {
        text = readFileSync(path.join(folder, '.gitignore'), 'utf8');
      } catch {
        text = undefined;
      }
      this.byFolder.set(folder, text === undefined ? undefined : ignore().add(text));
    }
    return this.byFolder.get(folder);
  }
}

/**
 * The per-attempt copies of the working directory that `--allow-side-effects` gives each case:
 * only the working directory, without what its `.gitignore` files ignore, `node_modules` and
 * `.holodeck` (unless `copyIgnored`, which still leaves `.holodeck` out). Every copy is removed
 * when the run ends, unless the caller keeps them.
 */
export class WorkdirCopies {
  private readonly created: string[] = [];

  constructor(
    private readonly plan: SideEffectPlan,
    private readonly options: { copyIgnored: boolean },
  ) {}

  /** A fresh copy for one attempt, or undefined when attempts share the working directory. */
  async create(): Promise<string | undefined> {
    if (!this.plan.isolateWorkingDirectory) return undefined;
    const source = this.plan.workingDirectory;
    const target = await mkdtemp(path.join(tmpdir(), 'holodeck-case-'));
    this.created.push(target);
    const rules = new GitignoreRules(source);
    await cp(source, target, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (file) => {
        if (file === source) return true;
        const name = path.basename(file);
        if (name === HOLODECK_FOLDER) return false;
        if (this.options.copyIgnored) return true;
        if (name === DEPENDENCIES_FOLDER) return false;
        return !rules.ignores(file, isDirectory(file));
      },
    });
    return target;
  }

  /** Removes every copy (or keeps them all); returns the folders kept. */
  async finish(keep: boolean): Promise<string[]> {
    const copies = this.created.splice(0);
    if (keep) return copies;
    await Promise.all(copies.map((folder) => rm(folder, { recursive: true, force: true })));
    return [];
  }
}

function isDirectory(file: string): boolean {
  try {
    return lstatSync(file).isDirectory();
  } catch {
    return false;
  }
}
