/**
 * A small key-value client of the service, as a team would write one: it mints its own
 * authorization with the secret, retries what a network and a busy service do to it (backing
 * off, honouring `retry-after`), mints again when its authorization expires, and never takes a
 * body it cannot read for an answer. Three bugs client code often hides are planted behind
 * switches, each off by default; its suite (`client.test.ts`) passes with all of them on.
 */
export interface Bugs {
  /** Retries a 429 at once, without waiting the `retry-after` it was given. */
  noBackoff?: boolean
  /** Keeps its first authorization for good: one that expires between two tries fails the call. */
  staleToken?: boolean
  /** Takes a body that does not parse for an empty answer (`null`), as a success. */
  trustTruncated?: boolean
}

export interface ClientOptions {
  baseUrl: string
  /** The secret key it mints its authorizations with. */
  secret: string
  /** Waits `ms` milliseconds between tries; a test gives it the service's virtual clock. */
  sleep: (ms: number) => Promise<unknown>
  bugs?: Bugs
}

/** The most tries of one call. */
const TRIES = 8

class Retry extends Error {
  constructor(
    message: string,
    readonly waitMs: number,
    readonly expired = false,
  ) {
    super(message)
  }
}

/** The client: `get` and `set` on one bucket. */
export function createClient({ baseUrl, secret, sleep, bugs = {} }: ClientOptions) {
  let token: string | undefined

  /** One try: the answer's value, or a `Retry` saying how long to wait. */
  async function send(path: string, bearer: string, args: Record<string, unknown>) {
    let response: Response
    let text: string
    try {
      response = await fetch(`${baseUrl}/${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/vnd.service+json',
          accept: 'application/json',
        },
        body: JSON.stringify(Object.entries(args).map(([key, value]) => ['$$', key, value])),
      })
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
    if (response.status === 401 && /expired/.test(text)) {
      throw new Retry('authorization expired', 0, true)
    }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      if (bugs.trustTruncated) return null
      throw new Retry('a body cut short', 200)
    }
    if (response.status !== 200) {
      throw new Error(`${path}: ${response.status} ${JSON.stringify(value)}`)
    }
    return value
  }

  /** `send` tried up to `TRIES` times, waiting as each failure says. */
  async function call(path: string, args: Record<string, unknown>, bearer?: () => Promise<string>) {
    let last: unknown
    for (let attempt = 0; attempt < TRIES; attempt++) {
      try {
        return await send(path, bearer ? await bearer() : secret, args)
      } catch (error) {
        if (!(error instanceof Retry)) throw error
        last = error
        if (error.expired && !bugs.staleToken) token = undefined
        if (error.waitMs > 0) await sleep(error.waitMs * 2 ** Math.min(attempt, 3))
      }
    }
    throw new Error(`${path}: gave up after ${TRIES} tries: ${(last as Error).message}`)
  }

  const authorization = async (): Promise<string> =>
    (token ??= (await call('auth/create', { abilities: ['keyv'], ttl: 300 })) as string)

  return {
    get: (key: string) => call('keyv/get', { bucket: 'app', key }, authorization),
    set: (key: string, value: unknown) =>
      call('keyv/set', { bucket: 'app', key, value }, authorization),
  }
}
