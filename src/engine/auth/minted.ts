/** The endpoint that makes an authorization from a token the caller holds. */
export const MINT_ENDPOINT = 'auth.create'

/**
 * Whether an exchange minted an authorization: a call of `auth.create` (as the journal's trace
 * names the endpoint) answered 200. Every reader of a log asks this the same way.
 */
export const mintedAuthorization = (endpoint: string | null | undefined, status: number): boolean =>
  endpoint === MINT_ENDPOINT && status === 200

/** An authorization is `<payload>.<signature>`, both base64url. */
export const isAuthorizationToken = (token: unknown): token is string =>
  typeof token === 'string' && /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)
