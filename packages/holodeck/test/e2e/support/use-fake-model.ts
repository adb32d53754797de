import { type FakeAnthropicServer, startFakeAnthropic } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll } from 'vitest';

/**
 * One fake model for the test file: started before all tests, closed after them, and after each
 * test checked that every scripted step was used and nothing unexpected arrived, then reset.
 * Call at the top level of a test file; the accessor returns the running server.
 */
export function useFakeModel(): () => FakeAnthropicServer {
  let fake: FakeAnthropicServer | undefined;
  const current = () => {
    if (!fake) throw new Error('the fake model is not running: use it inside a test or hook');
    return fake;
  };
  beforeAll(async () => {
    fake = await startFakeAnthropic();
  });
  afterEach(() => {
    try {
      current().assertComplete();
    } finally {
      current().reset();
    }
  });
  afterAll(() => current().close());
  return current;
}
