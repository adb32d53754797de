import type { z } from 'zod';

/**
 * Adds a custom issue from a cross-field refinement. The hint travels in `params.hint`
 * and becomes ConfigIssue.hint (see map-zod-issues.ts).
 */
export function addConfigIssue(
  context: z.RefinementCtx,
  path: (string | number)[],
  message: string,
  hint?: string,
): void {
  context.addIssue({ code: 'custom', path, message, params: hint === undefined ? {} : { hint } });
}
