// What the suite's files import from 'vitest', under Jest (jest.config.js maps 'vitest' here):
// Jest's own globals, which take the same calls.
export const { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, test } = globalThis
