// @ts-check
// gate-overhead: --compare: the hook level of two builds side by side.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { table } from '../bench-format.mjs';
import { hookReads, hookWrites, openWorld } from './hook-level.mjs';
import { fixed, progress } from './measure.mjs';
import { overheadAt, ownTimes, walls } from './report.mjs';

export async function hookComparison(variants, dir, options) {
  const worlds = [];
  for (const [index, variant] of variants.entries()) {
    const folder = path.join(dir, `variant-${index}`);
    await mkdir(folder);
    worlds.push({ ...variant, world: await openWorld(variant.novarch, folder, variant.storeOptions) });
  }
  try {
    for (const { novarch, world } of worlds) {
      progress('comparison: warm-up');
      await hookReads(novarch, world, {
        count: Math.min(200, options.reads),
        sessionReads: options.sessionReads,
        timed: false,
      });
      await hookWrites(novarch, world, {
        count: Math.min(20, options.writes),
        evidence: options.evidence,
        timed: false,
      });
    }
    const results = worlds.map(() => ({
      reads: { gated: [], baseline: [] },
      writes: { gated: [], baseline: [] },
    }));
    const reads = Math.max(1, Math.floor(options.reads / options.blocks));
    const writes = Math.max(1, Math.floor(options.writes / options.blocks));
    for (let block = 0; block < options.blocks; block++) {
      for (let turn = 0; turn < worlds.length; turn++) {
        const index = (block + turn) % worlds.length;
        const { novarch, world } = worlds[index];
        progress(`comparison: block ${block + 1}/${options.blocks}, ${worlds[index].label}`);
        const read = await hookReads(novarch, world, {
          count: reads,
          sessionReads: options.sessionReads,
          timed: false,
        });
        const write = await hookWrites(novarch, world, {
          count: writes,
          evidence: options.evidence,
          timed: false,
        });
        for (const kind of ['gated', 'baseline']) {
          results[index].reads[kind].push(...read[kind]);
          results[index].writes[kind].push(...write[kind]);
        }
      }
    }
    progress('');
    return worlds.map(({ label }, index) => ({ label, ...results[index] }));
  } finally {
    for (const { world } of worlds) await world.store.close();
  }
}

export function comparisonReport(compared, options) {
  const at = (calls, baseline, of, q) => fixed(overheadAt(of(calls), of(baseline), q), 3);
  const rows = compared.map(({ label, reads, writes }) => [
    label,
    at(reads.gated, reads.baseline, walls, 0.5),
    at(reads.gated, reads.baseline, walls, 0.99),
    at(reads.gated, reads.baseline, ownTimes, 0.5),
    at(reads.gated, reads.baseline, ownTimes, 0.99),
    reads.gated.filter((call) => call.checkpoint).length,
    at(writes.gated, writes.baseline, walls, 0.5),
    at(writes.gated, writes.baseline, walls, 0.99),
    at(writes.gated, writes.baseline, ownTimes, 0.5),
    at(writes.gated, writes.baseline, ownTimes, 0.99),
  ]);
  return [
    `0. before/after, side by side: per variant ${compared[0].reads.gated.length} reads and ${compared[0].writes.gated.length} passed writes in ${options.blocks} blocks, the variants taking turns`,
    '',
    table(
      [
        'overhead (gated - baseline), ms',
        'read p50',
        'read p99',
        'own p50',
        'own p99',
        'ckpt',
        'write p50',
        'write p99',
        'own p50',
        'own p99',
      ],
      rows,
    ),
    '  own = less CPU wait (what the call costs on an idle machine); ckpt = reads during which the database file was',
    "  checkpointed (inline: by that read's own commit; background: by the worker thread, beside the call)",
  ].join('\n');
}
