import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XmlDocument, XsdValidator } from 'libxml2-wasm';
import { afterAll, describe, expect, it } from 'vitest';
import { writeJunitReport } from '../../../../src/runner/report/write-junit-report.js';
import {
  attempt,
  bleu,
  erroredCase,
  judge,
  mixedRun,
  passingCase,
  runReport,
  testCase,
  usage,
} from './report-builder.js';
import { REPORT_FIXTURES } from './report-paths.js';

// libxml2 itself (compiled to WebAssembly, from npm): the XSD check and XPath queries need no
// system xmllint, so `npm ci && npm test` is enough on a fresh machine.
const schemaDocument = XmlDocument.fromString(readFileSync(join(REPORT_FIXTURES, 'junit.xsd'), 'utf8'));
const validator = XsdValidator.fromDoc(schemaDocument);
const documents: XmlDocument[] = [];

afterAll(() => {
  for (const document of documents) document.dispose();
  validator.dispose();
  schemaDocument.dispose();
});

/** Validates the XML against junit.xsd (failing with libxml2's messages), and returns an XPath reader for it. */
function validated(xml: string): (xpath: string) => string {
  const document = XmlDocument.fromString(xml);
  documents.push(document);
  expect(() => validator.validate(document), 'junit.xsd validation').not.toThrow();
  return (xpath) => String(document.eval(`string(${xpath})`));
}

describe('writeJunitReport', () => {
  it('is checked by a validator that really rejects what junit.xsd forbids', () => {
    const broken = XmlDocument.fromString('<testsuites><testsuite name="x"/></testsuites>');
    documents.push(broken);
    expect(() => validator.validate(broken)).toThrow(/testsuite/);
  });

  it('counts tests, failures (ran and failed) and errors (agent run failed), and validates against the XSD', () => {
    const query = validated(writeJunitReport(mixedRun()));
    const suite = '/testsuites/testsuite';
    expect(query(`${suite}/@name`)).toBe('support-agent');
    expect(query(`${suite}/@tests`)).toBe('3');
    expect(query(`${suite}/@failures`)).toBe('1');
    expect(query(`${suite}/@errors`)).toBe('1');
    expect(query(`${suite}/@time`)).toBe('12.300');
    expect(query(`${suite}/@timestamp`)).toBe('2026-11-30T01:02:03');
    expect(query(`count(${suite}/testcase)`)).toBe('3');
    expect(query(`${suite}/properties/property[@name="run_id"]/@value`)).toBe('2026-11-30T01-02-03Z-ab12cd');
    expect(query(`${suite}/properties/property[@name="model"]/@value`)).toBe('claude-sonnet-4-5');
  });

  it('puts the classname, time, response, failed metrics and run errors on each testcase', () => {
    const query = validated(writeJunitReport(mixedRun()));
    const testcase = (name: string) => `/testsuites/testsuite/testcase[@name="${name}"]`;
    expect(query(`${testcase('refund-policy')}/@classname`)).toBe('support-agent');
    expect(query(`${testcase('refund-policy')}/@time`)).toBe('1.234');
    expect(query(`count(${testcase('refund-policy')}/failure | ${testcase('refund-policy')}/error)`)).toBe(
      '0',
    );
    expect(query(`${testcase('refund-policy')}/system-out`)).toBe(
      'Refunds are issued within 14 days of the return arriving at our warehouse.',
    );
    expect(query(`${testcase('shipping-times')}/failure/@message`)).toBe('bleu 0.41 < 0.6');
    expect(query(`${testcase('shipping-times')}/failure`)).toBe(
      'bleu 0.41 < 0.6: BLEU 0.41 against the ground truth',
    );
    expect(query(`${testcase('escalate-angry-customer')}/error/@message`)).toBe(
      'API error 529: Overloaded (after 3 retries)',
    );
    expect(query(`${testcase('escalate-angry-customer')}/error/@type`)).toBe('AgentRunError');
  });

  it('reports repeats in the failure message and every failed attempt in its body', () => {
    const flaky = testCase(
      'cancel-subscription',
      [
        attempt({ attempt: 1, metrics: [bleu(0.7)] }),
        attempt({ attempt: 2, metrics: [bleu(0.5), judge('helpfulness', 0.4)] }),
        attempt({ attempt: 3, metrics: [bleu(0.5)] }),
      ],
      { min_pass_rate: 0.6, pass_at_k: 1, pass_pow_k: 0.037 },
    );
    const query = validated(writeJunitReport(runReport([flaky])));
    const failure = '/testsuites/testsuite/testcase/failure';
    const repeats =
      '1/3 finished attempts passed (33.3%), [6.1%, 79.2%] at 95% · needs 60% · pass@3 1 · pass^3 0.037 · flaky';
    expect(query(`${failure}/@message`)).toBe(`${repeats}; bleu 0.5 < 0.6; helpfulness 0.4 < 0.7`);
    expect(query(failure)).toBe(
      [
        repeats,
        'attempt 2:',
        '  bleu 0.5 < 0.6: BLEU 0.5 against the ground truth',
        '  helpfulness 0.4 < 0.7: The answer cites the policy.',
        'attempt 3:',
        '  bleu 0.5 < 0.6: BLEU 0.5 against the ground truth',
      ].join('\n'),
    );
    expect(query('/testsuites/testsuite/testcase/@time')).toBe('3.702');
    // Per-case figures are suite properties (junit.xsd allows none on a testcase).
    expect(query('/testsuites/testsuite/properties/property[@name="case[cancel-subscription]"]/@value')).toBe(
      'flaky · pass rate 0.333 · [0.061, 0.792] at 0.95 · 3 finished attempts',
    );
  });

  it('makes a case with an attempt that could not be graded an <error>, not a <failure>', () => {
    const timedOut = testCase('cancel-subscription', [
      attempt({ attempt: 1, metrics: [bleu(0.7)] }),
      attempt({ attempt: 2, error: 'Agent run timed out after 60 s', metrics: [], token_usage: usage(0, 0) }),
    ]);
    const judgeDown = testCase('tone', [
      attempt({
        metrics: [{ ...judge('helpfulness', 0), error: 'judge request failed: 500 Internal Server Error' }],
      }),
    ]);
    const query = validated(writeJunitReport(runReport([timedOut, judgeDown])));
    expect(query('/testsuites/testsuite/@errors')).toBe('2');
    expect(query('/testsuites/testsuite/@failures')).toBe('0');
    expect(query('/testsuites/testsuite/testcase[1]/error/@type')).toBe('AgentRunError');
    expect(query('/testsuites/testsuite/testcase[1]/error/@message')).toBe('Agent run timed out after 60 s');
    expect(query('/testsuites/testsuite/testcase[2]/error/@type')).toBe('MetricError');
    expect(query('/testsuites/testsuite/testcase[2]/error/@message')).toBe(
      'metric helpfulness could not run: judge request failed: 500 Internal Server Error',
    );
  });

  it('escapes markup and quotes, keeps newlines in attributes, and strips control characters', () => {
    const nasty = 'a < b && "c" \'d\' ]]> \u0000\u0001\u0008\u000b\u000c\u001b[31m\uFFFE\uD800 é 😀';
    const report = runReport([
      passingCase(`case <${nasty}>`),
      erroredCase('crash', `first line ${nasty}\nsecond line\ttabbed`),
    ]);
    report.agent.name = `agent & "co"`;
    const first = report.cases[0];
    if (first) first.response = `<script>alert("x")</script> & ${nasty}`;
    const xml = writeJunitReport(report);
    const controls = [...xml].filter((character) => character < ' ' && !'\t\n\r'.includes(character));
    expect(controls).toEqual([]);
    const query = validated(xml);
    const cleaned = 'a < b && "c" \'d\' ]]> [31m é 😀';
    expect(query('/testsuites/testsuite/@name')).toBe('agent & "co"');
    expect(query('/testsuites/testsuite/testcase[1]/@name')).toBe(`case <${cleaned}>`);
    expect(query('/testsuites/testsuite/testcase[1]/system-out')).toBe(
      `<script>alert("x")</script> & ${cleaned}`,
    );
    expect(query('/testsuites/testsuite/testcase[2]/error/@message')).toBe(
      `first line ${cleaned}\nsecond line\ttabbed`,
    );
  });

  it('writes a valid suite for a run without cases', () => {
    const query = validated(writeJunitReport(runReport([])));
    expect(query('/testsuites/testsuite/@tests')).toBe('0');
  });
});
