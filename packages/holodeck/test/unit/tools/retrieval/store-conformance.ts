import { waitUntil } from '@holodeck/testkit';
import { describe, expect, it } from 'vitest';
import type { Chunk } from '../../../../src/tools/retrieval/chunk/chunk.js';
import type { EmbeddedChunk, RetrievalStore } from '../../../../src/tools/retrieval/store/retrieval-store.js';

/** A unit vector along one axis of a 4-dimension space (plus a little of the next). */
function vector(axis: number, tilt = 0): Float32Array {
  const values = [0, 0, 0, 0];
  values[axis % 4] = 1;
  values[(axis + 1) % 4] = tilt;
  const norm = Math.hypot(...values);
  return Float32Array.from(values.map((value) => value / norm));
}

function chunk(
  source: string,
  n: number,
  text: string,
  embedding: Float32Array,
  extra: Partial<Chunk> = {},
): EmbeddedChunk {
  return {
    id: `${source}#${n}`,
    source,
    title: source,
    headingPath: [],
    text,
    metadata: {},
    embedding,
    ...extra,
  };
}

/**
 * What every RetrievalStore must do with its data, run against the embedded SQLite store and the
 * PostgreSQL one (PGlite with pgvector, and a pgvector server when HOLODECK_TEST_DATABASE_URL is
 * set). `open` returns a fresh, empty store. The ingest lock has its own suite below.
 */
export function retrievalStoreConformance(name: string, open: () => Promise<RetrievalStore>): void {
  describe(`${name}: RetrievalStore conformance`, () => {
    const meta = { model: 'fake-embedding', dimensions: 4 };

    it('records files with their hash, replaces a file whole, deletes it', async () => {
      const store = await open();
      try {
        expect(await store.getMeta('a/tool')).toBeUndefined();
        await store.resetCollection('a/tool', meta);
        expect(await store.getMeta('a/tool')).toEqual({ ...meta, stemming: 'none' });
        await store.putFile('a/tool', 'one.md', 'h1', [
          chunk('one.md', 1, 'alpha', vector(0)),
          chunk('one.md', 2, 'beta', vector(1)),
        ]);
        await store.putFile('a/tool', 'two.md', 'h2', [chunk('two.md', 1, 'gamma', vector(2))]);
        expect(await store.listFiles('a/tool')).toEqual(
          new Map([
            ['one.md', 'h1'],
            ['two.md', 'h2'],
          ]),
        );
        expect(await store.countChunks('a/tool')).toBe(3);
        await store.putFile('a/tool', 'one.md', 'h1b', [chunk('one.md', 1, 'alpha again', vector(0))]);
        expect(await store.countChunks('a/tool')).toBe(2);
        expect((await store.listFiles('a/tool')).get('one.md')).toBe('h1b');
        await store.deleteFile('a/tool', 'two.md');
        expect([...(await store.listFiles('a/tool')).keys()]).toEqual(['one.md']);
        expect((await store.searchKeyword('a/tool', ['gamma'], 5)).length).toBe(0);
      } finally {
        await store.close();
      }
    });

    it('ranks semantic matches by cosine similarity, scored 0..1, within one collection only', async () => {
      const store = await open();
      try {
        await store.resetCollection('a/tool', meta);
        await store.resetCollection('b/tool', meta);
        await store.putFile('a/tool', 'x.md', 'h', [
          chunk('x.md', 1, 'near', vector(0, 0.1)),
          chunk('x.md', 2, 'far', vector(2)),
          chunk('x.md', 3, 'nearest', vector(0)),
        ]);
        await store.putFile('b/tool', 'y.md', 'h', [chunk('y.md', 1, 'other collection', vector(0))]);
        const hits = await store.searchSemantic('a/tool', vector(0), 2);
        expect(hits.map((hit) => hit.chunk.text)).toEqual(['nearest', 'near']);
        expect(hits[0]?.score).toBeCloseTo(1, 5);
        expect(hits[1]?.score).toBeCloseTo(1 / Math.hypot(1, 0.1), 4);
      } finally {
        await store.close();
      }
    });

    it('matches keywords, weighs title and heading above text, and keeps every chunk field', async () => {
      const store = await open();
      try {
        await store.resetCollection('a/tool', meta);
        await store.putFile('a/tool', 'p.md', 'h', [
          chunk('p.md', 1, 'the refund form is at the desk', vector(0)),
          chunk('p.md', 2, 'how to ask for money back', vector(1), {
            headingPath: ['Policies', 'Refund'],
            sectionId: 'policies/refund',
            page: 3,
            metadata: { category: 'billing' },
          }),
          chunk('p.md', 3, 'shipping times', vector(2)),
        ]);
        const hits = await store.searchKeyword('a/tool', ['refund'], 5);
        expect(hits.map((hit) => hit.chunk.id)).toEqual(['p.md#2', 'p.md#1']);
        expect(hits[0]?.chunk).toEqual({
          id: 'p.md#2',
          source: 'p.md',
          title: 'p.md',
          headingPath: ['Policies', 'Refund'],
          sectionId: 'policies/refund',
          page: 3,
          text: 'how to ask for money back',
          metadata: { category: 'billing' },
        });
        expect((hits[0]?.score ?? 0) > (hits[1]?.score ?? 0)).toBe(true);
        expect(await store.searchKeyword('a/tool', ['nothing'], 5)).toEqual([]);
      } finally {
        await store.close();
      }
    });

    it('ranks keywords with statistics of the collection searched only', async () => {
      const store = await open();
      try {
        await store.resetCollection('a/tool', meta);
        await store.putFile('a/tool', 'p.md', 'h', [
          chunk('p.md', 1, 'the refund form is at the desk', vector(0)),
          chunk('p.md', 2, 'refund policy and shipping policy', vector(1)),
          chunk('p.md', 3, 'shipping times for the desk', vector(2)),
        ]);
        const before = await store.searchKeyword('a/tool', ['refund', 'desk'], 5);
        // Another tool whose every chunk says "refund" and none "desk": shared statistics would
        // make "refund" common and "desk" rare, and reorder a/tool's results.
        await store.resetCollection('b/tool', meta);
        await store.putFile(
          'b/tool',
          'q.md',
          'h',
          Array.from({ length: 30 }, (_, index) => chunk('q.md', index, `refund number ${index}`, vector(3))),
        );
        const after = await store.searchKeyword('a/tool', ['refund', 'desk'], 5);
        expect(after.map((hit) => hit.chunk.id)).toEqual(before.map((hit) => hit.chunk.id));
        after.forEach((hit, index) => {
          expect(hit.score).toBeCloseTo(before[index]?.score ?? Number.NaN, 9);
        });
        expect(before.map((hit) => hit.chunk.id)).toEqual(['p.md#1', 'p.md#2', 'p.md#3']);
      } finally {
        await store.close();
      }
    });

    it('stems English word forms with stemming english, rebuilt in place by setStemming', async () => {
      const store = await open();
      try {
        await store.resetCollection('a/tool', meta);
        await store.putFile('a/tool', 't.md', 'h', [
          chunk('t.md', 1, 'writing mocks for the tests', vector(0)),
          chunk('t.md', 2, 'shipping times', vector(1)),
        ]);
        expect(await store.searchKeyword('a/tool', ['mock', 'testing'], 5)).toEqual([]);
        await store.setStemming('a/tool', 'english');
        expect(await store.getMeta('a/tool')).toEqual({ ...meta, stemming: 'english' });
        const hits = await store.searchKeyword('a/tool', ['mock', 'testing'], 5);
        expect(hits.map((hit) => hit.chunk.id)).toEqual(['t.md#1']);
        // Files written after the change are indexed with it too.
        await store.putFile('a/tool', 'u.md', 'h', [chunk('u.md', 1, 'a mocked server', vector(2))]);
        expect(
          (await store.searchKeyword('a/tool', ['mocking'], 5)).map((hit) => hit.chunk.id).sort(),
        ).toEqual(['t.md#1', 'u.md#1']);
        await store.resetCollection('b/tool', { ...meta, stemming: 'english' });
        await store.putFile('b/tool', 'v.md', 'h', [chunk('v.md', 1, 'escapes in strings', vector(0))]);
        expect((await store.searchKeyword('b/tool', ['escape'], 5)).map((hit) => hit.chunk.id)).toEqual([
          'v.md#1',
        ]);
      } finally {
        await store.close();
      }
    });

    it('a reset empties the collection and takes a new dimension', async () => {
      const store = await open();
      try {
        await store.resetCollection('a/tool', meta);
        await store.putFile('a/tool', 'x.md', 'h', [chunk('x.md', 1, 'old', vector(0))]);
        await store.resetCollection('a/tool', { model: 'other', dimensions: 2 });
        expect(await store.countChunks('a/tool')).toBe(0);
        expect(await store.listFiles('a/tool')).toEqual(new Map());
        await store.putFile('a/tool', 'x.md', 'h', [chunk('x.md', 1, 'new', Float32Array.from([1, 0]))]);
        expect((await store.searchSemantic('a/tool', Float32Array.from([1, 0]), 1))[0]?.chunk.text).toBe(
          'new',
        );
      } finally {
        await store.close();
      }
    });
  });
}

/** What the ingest lock is taken through: a store's `withIngestLock`, or the lock it delegates to. */
export type IngestLockHolder = Pick<RetrievalStore, 'withIngestLock' | 'close'>;

/** Resolves when `condition()` holds, polling; fails after `ms`. */
async function eventually(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  await waitUntil(condition, { timeoutMs: ms, what });
}

/**
 * What every store's ingest lock must do, as two processes sharing one index see it: `open`
 * returns two holders on the same index that do not share a lock session (two SQLite handles on
 * one file; two connection pools on one PostgreSQL database). PGlite cannot run it: it is one
 * session, and PostgreSQL advisory locks are re-entrant within a session; a real server runs it.
 */
export function ingestLockConformance(
  name: string,
  open: () => Promise<{ first: IngestLockHolder; second: IngestLockHolder }>,
): void {
  describe(`${name}: ingest lock conformance`, () => {
    it('serialises ingests of one collection: the second holder waits, and is told why once', async () => {
      const { first, second } = await open();
      try {
        const order: string[] = [];
        const waits: string[] = [];
        let release: () => void = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        const one = first.withIngestLock(
          'a/tool',
          () => {},
          async () => {
            order.push('first start');
            await held;
            order.push('first end');
          },
        );
        await eventually(() => order.includes('first start'), 'the first holder to take the lock');
        const two = second.withIngestLock(
          'a/tool',
          (message) => waits.push(message),
          async () => {
            order.push('second');
          },
        );
        await eventually(() => waits.length > 0, 'the second holder to be told it waits');
        expect(order).toEqual(['first start']);
        release();
        await Promise.all([one, two]);
        expect(order).toEqual(['first start', 'first end', 'second']);
        expect(waits).toHaveLength(1);
        expect(waits[0]).toMatch(/^waiting for another holodeck process/);
        expect(waits[0]).toContain('a/tool');
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    });

    it('releases the lock when the work fails', async () => {
      const { first, second } = await open();
      try {
        await expect(
          first.withIngestLock(
            'a/tool',
            () => {},
            async () => {
              throw new Error('parse failed');
            },
          ),
        ).rejects.toThrow('parse failed');
        const waits: string[] = [];
        expect(
          await second.withIngestLock(
            'a/tool',
            (message) => waits.push(message),
            async () => 'ran',
          ),
        ).toBe('ran');
        expect(waits).toEqual([]);
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    });
  });
}
