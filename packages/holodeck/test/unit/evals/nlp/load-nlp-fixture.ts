import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

// Loads the NLTK fixtures written by test/fixtures/nlp/generate_fixtures.py, checking their shape.

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/nlp');

const scoresBySmoothing = z.strictObject({
  method0: z.number(),
  method1: z.number(),
  method2: z.number(),
  method3: z.number(),
  method4: z.number(),
});

const caseFields = {
  id: z.string(),
  reference: z.string(),
  candidate: z.string(),
  referenceTokens: z.array(z.string()),
  candidateTokens: z.array(z.string()),
};

const settings = z.looseObject({ nltk: z.string() });

const bleuFixture = z.strictObject({
  settings,
  cases: z.array(
    z.strictObject({
      ...caseFields,
      bleu4: scoresBySmoothing,
      bleu4AutoReweigh: scoresBySmoothing,
      bleu2: scoresBySmoothing,
    }),
  ),
});

const meteorFixture = z.strictObject({
  settings,
  cases: z.array(z.strictObject({ ...caseFields, meteor: z.number() })),
});

const porterFixture = z.strictObject({ settings, stems: z.record(z.string(), z.string()) });

function readJson(name: string): unknown {
  return JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8'));
}

export const bleuCases = bleuFixture.parse(readJson('bleu.json')).cases;
export const meteorCases = meteorFixture.parse(readJson('meteor.json')).cases;
export const porterStems = porterFixture.parse(readJson('porter.json')).stems;
