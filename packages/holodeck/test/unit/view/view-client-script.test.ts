import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without types
import { bundleViewClient } from '../../../scripts/build-view-client.mjs';
import { VIEW_CLIENT_SCRIPT } from '../../../src/view/assets/view-client-script.js';

describe('the view client bundle', () => {
  it('is the committed src/view/assets/view-client-script.ts (rebuild: node packages/holodeck/scripts/build-view-client.mjs)', async () => {
    const fresh: string = await bundleViewClient();
    expect(
      VIEW_CLIENT_SCRIPT === fresh,
      'src/view/client or src/view/pages changed: rebuild the bundle',
    ).toBe(true);
  });
});
