/**
 * One error family. Every failure the engine reports is a `ServiceError` carrying its HTTP
 * status, a machine-readable code and the message a user reads; `errorReply` in
 * `wire/response.ts` is the one place that turns it into an answer.
 */
export class ServiceError extends Error {
  readonly status: number
  readonly code: string
  readonly headers: Record<string, string>

  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message)
    this.name = new.target.name
    this.status = status
    this.code = code
    this.headers = headers
  }
}

/** 400: the input, an argument or the body is malformed or of the wrong type. */
export class InvalidError extends ServiceError {
  constructor(message: string, code = 'invalid') {
    super(400, code, message)
  }
}

/** 401: credentials missing, invalid, expired, or lacking the ability. */
export class UnauthorizedError extends ServiceError {
  constructor(message: string, code = 'unauthorized') {
    super(401, code, message)
  }
}

/** 403: authenticated and able, but blocked. */
export class ForbiddenError extends ServiceError {
  constructor(message: string, code = 'forbidden') {
    super(403, code, message)
  }
}

/** 404: no endpoint (or control-plane route) by that name. */
export class UndefinedError extends ServiceError {
  constructor(message: string, code = 'undefined') {
    super(404, code, message)
  }
}

/** 405: only POST calls an endpoint. */
export class MethodError extends ServiceError {
  constructor(allow: string) {
    super(405, 'method_not_allowed', `method not allowed; use ${allow}`, { allow })
  }
}

/**
 * 499 (as nginx logs it): the client went away before its answer, and the work done for it
 * stopped. No one reads the answer; the journal keeps it.
 */
export class ClientGoneError extends ServiceError {
  constructor() {
    super(499, 'client_gone', 'the client went away before its answer: the work for it stopped')
  }
}

/** Throws `ClientGoneError` once `signal` is aborted. */
export function checkGone(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ClientGoneError()
}

/** 408: the call ran past the time limit. */
export class TimeoutError extends ServiceError {
  constructor(seconds: number) {
    super(408, 'timeout', `forced to stop after ${seconds}s`)
  }
}

/** 409: the request conflicts with the state of the account. */
export class ConflictError extends ServiceError {
  constructor(message: string) {
    super(409, 'conflict', message)
  }
}

/** 413: the body, or a value to be stored, is larger than the limit. */
export class TooLargeError extends ServiceError {
  constructor(limit: number, message = `request size exceeded the allowed ${limit} bytes`) {
    super(413, 'too_large', message)
  }
}

/** 415: a content type the service does not read. */
export class UnsupportedMediaError extends ServiceError {
  constructor(message: string) {
    super(415, 'unsupported_media_type', message)
  }
}

/**
 * 503: the account's store is closed, or its tables are gone from the database: the account was
 * deleted (a server answers its requests 404 then), or the service is stopping.
 */
export class StoreClosedError extends ServiceError {
  constructor(detail?: string) {
    super(
      503,
      'store_closed',
      `the account's data is closed${detail ? ` (${detail})` : ''}: the account was deleted, or the service is stopping`,
    )
  }
}

/** 429: more calls than the rate limit allows. */
export class LimitedError extends ServiceError {
  constructor(message: string, headers: Record<string, string>) {
    super(429, 'rate_limited', message, headers)
  }
}
