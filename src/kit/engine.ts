/**
 * `service-playground/engine`: the engine itself, for those who build their own front on it (a
 * server of another framework, a worker of their own). `engine.handle(request)` answers a
 * Fetch `Request` to `<baseUrl>/...` as the service does; `engine.answer(call)` the same as
 * plain data. The kit's root (`startService`, `listen`, the test helpers) is all a client's own
 * tests need: this is what it stands on.
 */
export { createEngine, createManualClock, createSystemClock } from '../engine'
export type { AnswerOptions, Clock, Engine, EngineOptions, Store } from '../engine'
export { createMemoryStore } from '../storage/memory-store'
