/** The account control plane (`<baseUrl>/_account/...`), over fetch like any other client. */

/** A control-plane error, with the HTTP status and the engine's message. */
export class AccountError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
    this.name = 'AccountError'
  }
}

/** One control-plane request; answers the parsed JSON, or throws `AccountError`. */
export async function control<T>(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  body?: object,
): Promise<T> {
  const response = await fetch(`${baseUrl}/_account/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  const value: unknown = text === '' ? null : JSON.parse(text)
  if (!response.ok) {
    const message = (value as { error?: { message?: string } } | null)?.error?.message
    throw new AccountError(
      response.status,
      message ?? `${method} ${path} failed with ${response.status}`,
    )
  }
  return value as T
}
