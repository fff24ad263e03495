import { test } from 'node:test';

/**
 * A test over a fresh instance of what a contract suite checks (a store): made
 * by `factory` for this test alone and closed after it, pass or fail.
 */
export function freshEach<T extends { close(): Promise<void> }>(factory: () => Promise<T>) {
  return (title: string, body: (under: T) => Promise<void>) =>
    test(title, async () => {
      const under = await factory();
      try {
        await body(under);
      } finally {
        await under.close();
      }
    });
}
