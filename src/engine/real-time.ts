/**
 * The platform's time and timers as they were when the engine loaded. A test that fakes them
 * afterwards (`vi.useFakeTimers()`, `vi.setSystemTime`, `jest.useFakeTimers()`) moves its own
 * code's time, never the service's: its clock moves only by `advanceClock`, and a fault's delay
 * waits in real time, in process as over `serve` (decision 014).
 */
const platform = globalThis as typeof globalThis & {
  setImmediate?: (run: () => void) => unknown
}

export const realTime = {
  /** Milliseconds since the Unix epoch, really. */
  now: Date.now.bind(Date) as () => number,
  /** A monotonic reading in milliseconds. */
  monotonic: performance.now.bind(performance) as () => number,
  setTimeout: platform.setTimeout.bind(platform) as (run: () => void, ms: number) => unknown,
  clearTimeout: platform.clearTimeout.bind(platform) as (timer: unknown) => void,
  /** Node's `setImmediate`, where there is one. */
  setImmediate: platform.setImmediate?.bind(platform),
}
