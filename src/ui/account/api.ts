import type { SecretView } from '../../engine'

/** The account control plane (`<baseUrl>/_account/...`), over fetch like any other client. */

export interface ClockView {
  /** Unix seconds on the engine's virtual clock. */
  now: number
}

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

async function control<T>(
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

export const listSecrets = (baseUrl: string) => control<SecretView[]>(baseUrl, 'GET', 'secrets')

export const createSecret = (baseUrl: string) => control<SecretView>(baseUrl, 'POST', 'secrets', {})

/** Rolls `id` now, or at `at` (Unix seconds on the virtual clock); returns the replacement. */
export const rollSecret = (baseUrl: string, id: string, at?: number) =>
  control<SecretView>(
    baseUrl,
    'POST',
    `secrets/${encodeURIComponent(id)}/roll`,
    at === undefined ? {} : { at },
  )

export const getClock = (baseUrl: string) => control<ClockView>(baseUrl, 'GET', 'clock')

export const advanceClock = (baseUrl: string, seconds: number) =>
  control<ClockView>(baseUrl, 'POST', 'clock', { advance: seconds })
