import { ControlError, controlClient } from './control'
import { trimBaseUrl } from './wire'

/** An account of its own on a running `serve` (see `openAccount`). */
export interface ServeAccount {
  id: string
  /** Where the account answers: `<server url>/a/<id>`. */
  baseUrl: string
  /** Its secret key. */
  secret: string
  /** Its own control token, for `<baseUrl>/_account/*`. */
  controlToken: string
  /** Its seed (decision 086); `null` for none. */
  seed: string | null
  /** Back to the state the account started in (`POST <baseUrl>/_account/reset`). */
  reset(): Promise<void>
  /** Removes the account and everything in it. */
  close(): Promise<void>
}

/**
 * Makes an account of its own on the `serve` at `url` (`POST /_accounts` with the server's
 * control token): what a test worker needs to run beside others on one server.
 */
export async function openAccount({
  url,
  controlToken,
  seed,
}: {
  url: string
  controlToken: string
  /** Makes the account deterministic with this seed (decision 086). */
  seed?: string | number
}): Promise<ServeAccount> {
  const server = trimBaseUrl(url)
  const headers = { authorization: `Bearer ${controlToken}` }
  const open = () =>
    fetch(`${server}/_accounts`, {
      method: 'POST',
      headers: seed === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(seed === undefined ? {} : { body: JSON.stringify({ seed }) }),
    })
  const made = await open()
    // A kept-alive connection the server closed as it was reused never carried the request:
    // it is sent once more, on a new connection.
    .catch((error: unknown) => (REUSED.has(codeOf(error) ?? '') ? open() : Promise.reject(error)))
    .catch((error: unknown) => {
      const cause = codeOf(error) ?? String(error)
      throw new Error(
        `openAccount: nothing answers at ${server} (${cause}): start a server first (\`npx service-playground serve --port 0\`, or spawnServe() from Node) and pass the URL and control token it printed`,
      )
    })
  if (made.status !== 201) {
    throw new Error(`${server}/_accounts answered ${made.status}: ${await made.text()}`)
  }
  const account = (await made.json()) as Omit<ServeAccount, 'close' | 'reset'>
  return {
    ...account,
    async reset() {
      await controlClient({ baseUrl: account.baseUrl, token: account.controlToken })
        .post('reset', {})
        .catch((error: unknown) => {
          if (!(error instanceof ControlError)) throw error
          throw new Error(`reset answered ${error.status}: ${error.text}`)
        })
    },
    async close() {
      await fetch(`${server}/_accounts/${account.id}`, { method: 'DELETE', headers })
    },
  }
}

/** The codes of a connection closed under a request before any answer. */
const REUSED = new Set(['UND_ERR_SOCKET', 'ECONNRESET'])

/**
 * Why a request failed: the system's code (`ECONNREFUSED`) from the error or its causes, or the
 * innermost cause's message.
 */
function codeOf(error: unknown): string | undefined {
  let message: string | undefined
  for (let at = error; typeof at === 'object' && at !== null;) {
    const { code, cause, errors } = at as { code?: unknown; cause?: unknown; errors?: unknown[] }
    if (typeof code === 'string') return code
    message = (at as { message?: string }).message ?? message
    at = cause ?? errors?.[0]
  }
  return message
}
