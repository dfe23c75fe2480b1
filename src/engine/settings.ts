import type { Clock } from './clock'
import type { Store } from './store'

export interface RateLimit {
  /** Calls allowed in each window of `windowSeconds`. */
  limit: number
  windowSeconds: number
  /** When false the header is still sent, but no call is refused. */
  enforce: boolean
}

export interface Limits {
  /** Request bodies above this many bytes are refused with 413. */
  maxBodyBytes: number
  /** A call (the whole tree it evaluates) running longer is stopped with 408. */
  timeLimitMs: number
  /** How deeply calls, compositions and values may nest. */
  maxDepth: number
  /** How many endpoint calls one request may make, counting every inner call. */
  maxCalls: number
  /** How large (as JSON, roughly) any value a call produces may grow. */
  maxValueBytes: number
  rateLimit: RateLimit
  /**
   * Real milliseconds an evaluation runs before it yields to the event loop, so one heavy
   * request cannot starve the others; `Infinity` never yields.
   */
  sliceMs: number
  /** Bytes of keys, values and stored procedures the account may hold, measured as JSON. */
  maxAccountBytes: number
}

export interface EngineSettings {
  /** The service's own name: content type, stored-procedure package, error wording. */
  serviceName: string
  /** Where the service is reached; only its path matters to the engine. */
  baseUrl: string
  store: Store
  clock: Clock
  limits: Limits
}

/**
 * What an endpoint sees of the settings: everything but the store. An endpoint reaches storage
 * only through `ctx.store`, the request's overlay, so that a request writes all or nothing.
 */
export type EndpointSettings = Omit<EngineSettings, 'store'>

/** The settings without the store, as a new object (so the store is not there at run time either). */
export function endpointSettings({
  serviceName,
  baseUrl,
  clock,
  limits,
}: EngineSettings): EndpointSettings {
  return { serviceName, baseUrl, clock, limits }
}

export const defaultLimits: Limits = {
  maxBodyBytes: 131072,
  timeLimitMs: 5000,
  maxDepth: 64,
  maxCalls: 10000,
  maxValueBytes: 8 * 1024 * 1024,
  rateLimit: { limit: 20, windowSeconds: 60, enforce: false },
  sliceMs: 10,
  maxAccountBytes: 64 * 1024 * 1024,
}

export const DEFAULT_SERVICE_NAME = 'service'
export const DEFAULT_BASE_URL = 'https://api.service.test'

/** Service names appear in content types and endpoint names: keep them to a safe alphabet. */
export const SERVICE_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/

/** The package stored procedures are called under: `lib.<name>`. */
export const LIB = 'lib'
