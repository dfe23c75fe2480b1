// What the files import from 'vitest', under Jest: Jest's own globals, and its fake timers as
// `vi` (leaving process.nextTick and queueMicrotask real, as Vitest does).
import { jest } from '@jest/globals'

export const { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, test } = globalThis
export const vi = {
  useFakeTimers: () => jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] }),
  useRealTimers: () => jest.useRealTimers(),
  setSystemTime: (now) => jest.setSystemTime(now),
  advanceTimersByTime: (ms) => jest.advanceTimersByTime(ms),
}
