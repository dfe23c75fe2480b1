/**
 * A small key-value client of the service, as a team would write one: it mints its own
 * authorization with the secret it reads from its vault, retries what a network and a busy
 * service do to it (backing off, honouring `retry-after`, giving up on a call that hangs), mints
 * again when its authorization expires or its secret is rolled, starts a scan again when its
 * cursor dies, and never takes a body it cannot read for an answer. Six bugs client code often
 * hides are planted behind switches, each off by default; its suite (`client.test.ts`) passes
 * with all of them on.
 */
export interface Bugs {
  /** Retries a 429 at once, without waiting the `retry-after` it was given. */
  noBackoff?: boolean
  /** Keeps its first authorization for good: one that expires between two tries fails the call. */
  staleToken?: boolean
  /** Takes a body that does not parse for an empty answer (`null`), as a success. */
  trustTruncated?: boolean
  /** Reads its secret once and keeps it: a secret rolled while it pages leaves it locked out. */
  staleSecret?: boolean
  /** Sends a refused cursor again after the error, instead of starting the scan over. */
  reuseCursor?: boolean
  /** Waits for an answer as long as it takes: a call that hangs hangs the client. */
  noTimeout?: boolean
}

/** Every switch, off and on: what the example's proof walks through. */
export const BUG_NAMES = [
  'noBackoff',
  'staleToken',
  'trustTruncated',
  'staleSecret',
  'reuseCursor',
  'noTimeout',
] as const satisfies ReadonlyArray<keyof Bugs>

export interface ClientOptions {
  baseUrl: string
  /** Reads the secret key it mints its authorizations with (a vault's current secret). */
  secret: () => Promise<string>
  /** Waits `ms` milliseconds between tries; a test gives it the service's virtual clock. */
  sleep: (ms: number) => Promise<unknown>
  bugs?: Bugs
  /** Real milliseconds a try waits before it gives up; default `TIMEOUT_MS`. */
  timeoutMs?: number
  /** How a request reaches the service: the global `fetch` unless given (an engine's `handle`). */
  fetch?: (request: Request) => Promise<Response>
}

/** The most tries of one call. */
const TRIES = 8
/** Real milliseconds a try waits for its answer before it gives up and tries again. */
export const TIMEOUT_MS = 150

class Retry extends Error {
  constructor(
    message: string,
    readonly waitMs: number,
    readonly refused = false,
  ) {
    super(message)
  }
}

/** The scan's cursor was refused: the scan starts over from its first page. */
class CursorRefused extends Error {}

/** The client: `get`, `set` and `list` on one bucket. */
export function createClient({
  baseUrl,
  secret,
  sleep,
  bugs = {},
  timeoutMs = TIMEOUT_MS,
  fetch: transport = (request) => fetch(request),
}: ClientOptions) {
  let token: string | undefined
  let key: string | undefined
  const secretKey = async () => (key ??= await secret())

  /** One try: the answer's value and its `x-cursor`, or a `Retry` saying how long to wait. */
  async function send(path: string, bearer: string, args: Record<string, unknown>) {
    let response: Response
    let text: string
    try {
      response = await transport(
        new Request(`${baseUrl}/${path}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${bearer}`,
            'content-type': 'application/vnd.service+json',
            accept: 'application/json',
          },
          body: JSON.stringify(Object.entries(args).map(([name, value]) => ['$$', name, value])),
          ...(bugs.noTimeout ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
        }),
      )
      text = await response.text()
    } catch {
      throw new Retry('no answer', 200)
    }
    if (response.status === 429) {
      const after = Number(response.headers.get('retry-after') ?? '1')
      throw new Retry('rate limited', bugs.noBackoff ? 0 : after * 1000)
    }
    if (response.status >= 500 || response.status === 408) {
      throw new Retry(`status ${response.status}`, 200)
    }
    if (response.status === 401) throw new Retry('credential refused', 0, true)
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      if (bugs.trustTruncated) return { value: null, cursor: '' }
      throw new Retry('a body cut short', 200)
    }
    if (response.status === 400 && /cursor is invalid/.test(text) && !bugs.reuseCursor) {
      throw new CursorRefused(text)
    }
    if (response.status !== 200) {
      throw new Error(`${path}: ${response.status} ${JSON.stringify(value)}`)
    }
    return { value, cursor: response.headers.get('x-cursor') ?? '' }
  }

  /** `send` tried up to `TRIES` times, waiting as each failure says. */
  async function call(path: string, args: Record<string, unknown>, authorized = true) {
    let last: unknown
    for (let attempt = 0; attempt < TRIES; attempt++) {
      try {
        return await send(path, authorized ? await authorization() : await secretKey(), args)
      } catch (error) {
        if (!(error instanceof Retry)) throw error
        last = error
        if (error.refused) {
          // An authorization expired, or its secret was rolled: mint again, from the vault's
          // secret when the one held was refused.
          if (!bugs.staleToken) token = undefined
          if (!authorized && !bugs.staleSecret) key = undefined
        }
        if (error.waitMs > 0) await sleep(error.waitMs * 2 ** Math.min(attempt, 3))
      }
    }
    throw new Error(`${path}: gave up after ${TRIES} tries: ${(last as Error).message}`)
  }

  const authorization = async (): Promise<string> =>
    (token ??= (await call('auth/create', { abilities: ['keyv'], ttl: 300 }, false))
      .value as string)

  /** Every key starting with `prefix`, `count` a page; a refused cursor starts the scan over. */
  async function list(prefix: string, count: number): Promise<string[]> {
    for (let restart = 0; restart < TRIES; restart++) {
      const keys: string[] = []
      let cursor = ''
      try {
        do {
          const page = await call('keyv/scan', {
            bucket: 'app',
            prefix,
            count,
            ...(cursor ? { cursor } : {}),
          })
          keys.push(...(page.value as string[]))
          cursor = page.cursor
        } while (cursor)
        return keys
      } catch (error) {
        if (!(error instanceof CursorRefused)) throw error
      }
    }
    throw new Error(`keyv/scan: its cursor was refused ${TRIES} times`)
  }

  return {
    get: async (name: string) => (await call('keyv/get', { bucket: 'app', key: name })).value,
    set: async (name: string, value: unknown) =>
      (await call('keyv/set', { bucket: 'app', key: name, value })).value,
    list,
  }
}
