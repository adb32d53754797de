import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeAtomically } from '../../recording/recording-file.js';
import { errorMessage } from '../../support.js';
import type { CalibrationReport, SavedCalibration } from './calibration-report.js';
import { SavedCalibrationSchema } from './calibration-report.js';

/** Where `holodeck judge calibrate` keeps its calibrations: `<agent folder>/.holodeck/calibrations`. */
export function calibrationsDirectory(agentFolder: string): string {
  return path.join(agentFolder, '.holodeck', 'calibrations');
}

/** A calibration id: its start time and a random tail, a file name that sorts by time. */
export function newCalibrationId(startedAt: Date): string {
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  return `${stamp}-${Math.random().toString(16).slice(2, 8)}`;
}

/** Saves a calibration as `<dir>/<id>.json` (written whole, then renamed into place). Returns the path. */
export async function saveCalibration(report: CalibrationReport, dir: string): Promise<string> {
  const file = path.join(dir, `${report.calibration_id}.json`);
  await writeAtomically(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}

/** A saved calibration that could not be read, and why. */
export interface UnreadableCalibration {
  file: string;
  problem: string;
}

/**
 * Every readable, finished calibration in `dir`, newest first (by started_at), and the files that
 * could not be read. A missing folder holds none.
 */
export async function listCalibrations(
  dir: string,
): Promise<{ calibrations: SavedCalibration[]; unreadable: UnreadableCalibration[] }> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT')
      return { calibrations: [], unreadable: [] };
    throw error;
  }
  const calibrations: SavedCalibration[] = [];
  const unreadable: UnreadableCalibration[] = [];
  for (const name of names.filter((entry) => entry.endsWith('.json') && !entry.startsWith('.'))) {
    const file = path.join(dir, name);
    let data: unknown;
    try {
      data = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      unreadable.push({ file, problem: errorMessage(error) });
      continue;
    }
    const parsed = SavedCalibrationSchema.safeParse(data);
    if (!parsed.success) {
      unreadable.push({ file, problem: 'not a calibration of this holodeck version' });
      continue;
    }
    if (parsed.data.interrupted !== true) calibrations.push(parsed.data);
  }
  calibrations.sort(
    (a, b) =>
      Date.parse(b.started_at) - Date.parse(a.started_at) || b.calibration_id.localeCompare(a.calibration_id),
  );
  return { calibrations, unreadable };
}
