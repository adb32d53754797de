import { PLAIN_STYLE, paint, type Style } from '../../../src/cli/terminal-style.js';
import type { StyledText } from '../../../src/format/styled-text.js';

/**
 * A formatter as the CLI prints it: its lines painted in `style` (plain by default), so the tests
 * compare the exact text an operator sees.
 */
export function printed<A extends unknown[]>(
  format: (...args: A) => StyledText,
): (...args: [...A, Style?]) => string {
  return (...args) => {
    const style = args.length > format.length ? (args[format.length] as Style | undefined) : undefined;
    return paint(format(...(args.slice(0, format.length) as A)), style ?? PLAIN_STYLE);
  };
}
