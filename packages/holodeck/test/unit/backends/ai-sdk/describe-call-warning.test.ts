import { describe, expect, it } from 'vitest';
import { describeCallWarning } from '../../../../src/backends/ai-sdk/describe-call-warning.js';

describe('describeCallWarning', () => {
  it('words each kind of provider warning for the user', () => {
    expect(describeCallWarning({ type: 'unsupported', feature: 'topK' }, 'gpt-4o')).toEqual({
      code: 'model-setting-unsupported',
      message: 'model gpt-4o does not support topK, so it is ignored.',
    });
    expect(
      describeCallWarning(
        { type: 'compatibility', feature: 'toolChoice', details: 'sent as auto' },
        'llama3.2',
      ),
    ).toEqual({
      code: 'model-setting-compatibility',
      message: 'model llama3.2 runs toolChoice in a compatibility mode: sent as auto',
    });
    expect(describeCallWarning({ type: 'other', message: 'system messages are merged' }, 'm')).toEqual({
      code: 'model-call-warning',
      message: 'model m: system messages are merged',
    });
  });
});
