import { describe, expect, it } from 'vitest';
import { HierarchicalDocumentToolSchema } from '../../../../src/config/schema/retrieval-tool-schema.js';
import { searchSettingsOf } from '../../../../src/tools/retrieval/retrieval-tool-settings.js';
import { fuseRankings, fuseScores } from '../../../../src/tools/retrieval/search/fuse-rankings.js';
import type { ScoredChunk } from '../../../../src/tools/retrieval/store/retrieval-store.js';

const hit = (id: string, score: number): ScoredChunk => ({
  chunk: { id, source: 's', title: 's', headingPath: [], text: id, metadata: {} },
  score,
});

describe('fuseScores (normalised score fusion)', () => {
  it('scales each list from its floor to its best; a chunk a list lacks gets its lowest score', () => {
    const semantic = [hit('a', 0.9), hit('b', 0.8), hit('c', 0.5)];
    const keyword = [hit('c', 12), hit('d', 2), hit('a', 1)];
    const fused = fuseScores([
      { hits: semantic, weight: 1, floor: -1 },
      { hits: keyword, weight: 4, floor: 0 },
    ]);
    expect(fused.map((entry) => entry.chunk.id)).toEqual(['c', 'd', 'a', 'b']);
    expect(fused[0]?.score).toBeCloseTo(1.5 / 1.9 + 4, 9); // c: (0.5 + 1)/(0.9 + 1) + 4·12/12
    expect(fused[1]?.score).toBeCloseTo(1.5 / 1.9 + (4 * 2) / 12, 9); // d: semantic's lowest, 0.5
    expect(fused[2]?.score).toBeCloseTo(1 + (4 * 1) / 12, 9); // a
    expect(fused[3]?.score).toBeCloseTo(1.8 / 1.9 + (4 * 1) / 12, 9); // b: keyword's lowest, 1
  });

  it('a weak semantic list (close, low cosines) does not overturn a clear keyword order, as min-max did', () => {
    // Min-max scaling stretched 0.25..0.30 to 0..1, so k2 (keyword 9.5, semantic 0.30) beat k1
    // (keyword 10, semantic 0.25): 4·0.94 + 1 against 4 + 0. From cosine's floor −1 they differ by 0.04.
    const fused = fuseScores([
      { hits: [hit('k2', 0.3), hit('k3', 0.28), hit('k1', 0.25)], weight: 1, floor: -1 },
      { hits: [hit('k1', 10), hit('k2', 9.5), hit('k3', 2)], weight: 4, floor: 0 },
    ]);
    expect(fused.map((entry) => entry.chunk.id)).toEqual(['k1', 'k2', 'k3']);
  });

  it('a keyword answer beyond the semantic cut-off is not scored as the worst possible match', () => {
    const fused = fuseScores([
      { hits: [hit('s1', 0.6), hit('s2', 0.55), hit('s3', 0.5)], weight: 1, floor: -1 },
      { hits: [hit('answer', 10), hit('s1', 9)], weight: 4, floor: 0 },
    ]);
    expect(fused[0]?.chunk.id).toBe('answer');
    expect(fused[0]?.score).toBeCloseTo(4 + 1.5 / 1.6, 9);
  });

  it('a strong keyword match is not dragged below middling ranks, as equal-weight RRF does', () => {
    // The keyword list has one clear answer; the semantic list ranks it tenth, and a chunk both
    // lists find middling (first and a distant second) wins under equal-weight RRF.
    const ids = ['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', 'x8', 'x9', 'answer'];
    const semantic = ids.map((id, index) => hit(id, 0.5 - index * 0.01));
    const keyword = [hit('answer', 20), hit('x1', 1), hit('x3', 0.9)];
    const rrf = fuseRankings(
      [
        { hits: semantic, weight: 1 },
        { hits: keyword, weight: 1 },
      ],
      60,
    );
    const normalized = fuseScores([
      { hits: semantic, weight: 1, floor: -1 },
      { hits: keyword, weight: 4, floor: 0 },
    ]);
    expect(normalized[0]?.chunk.id).toBe('answer');
    expect(rrf[0]?.chunk.id).not.toBe('answer');
  });

  it('gives every hit of a list whose scores are all equal the full weight; weight 0 ignores a list', () => {
    const fused = fuseScores([
      { hits: [hit('a', 0.3), hit('b', 0.3)], weight: 2, floor: -1 },
      { hits: [hit('c', 5)], weight: 0, floor: 0 },
    ]);
    expect(fused.map((entry) => [entry.chunk.id, entry.score])).toEqual([
      ['a', 2],
      ['b', 2],
    ]);
  });
});

describe('hybrid defaults', () => {
  const config = (fields: Record<string, unknown>) =>
    HierarchicalDocumentToolSchema.parse({
      type: 'hierarchical_document',
      name: 't',
      description: 'd',
      source: 'x',
      ...fields,
    });

  it('fuse by normalised scores, keyword 4 : semantic 1, stemming english', () => {
    const settings = searchSettingsOf(config({}));
    expect(settings).toMatchObject({
      mode: 'hybrid',
      fusion: 'normalized',
      semanticWeight: 1,
      keywordWeight: 4,
    });
    expect(config({}).stemming).toBe('english');
  });

  it('use reciprocal rank fusion with equal weights when rrf_k or fusion rrf is set', () => {
    expect(searchSettingsOf(config({ rrf_k: 20 }))).toMatchObject({
      fusion: 'rrf',
      rrfK: 20,
      keywordWeight: 1,
    });
    expect(searchSettingsOf(config({ fusion: 'rrf' }))).toMatchObject({
      fusion: 'rrf',
      rrfK: 60,
      keywordWeight: 1,
    });
  });
});
