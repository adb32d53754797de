import type { CallWarning } from 'ai';
import type { BackendWarning } from '../contract/index.js';

/**
 * A warning the provider gave about one model call (a setting the model does not support, e.g.
 * temperature on a reasoning model) as a BackendWarning. The AI SDK would print these to the
 * console; HoloDeck reports them with its other warnings instead.
 */
export function describeCallWarning(warning: CallWarning, model: string): BackendWarning {
  switch (warning.type) {
    case 'unsupported':
      return {
        code: 'model-setting-unsupported',
        message: `model ${model} does not support ${warning.feature}, so it is ignored${warning.details ? `: ${warning.details}` : '.'}`,
      };
    case 'compatibility':
      return {
        code: 'model-setting-compatibility',
        message: `model ${model} runs ${warning.feature} in a compatibility mode${warning.details ? `: ${warning.details}` : '.'}`,
      };
    case 'other':
      return { code: 'model-call-warning', message: `model ${model}: ${warning.message}` };
  }
}
