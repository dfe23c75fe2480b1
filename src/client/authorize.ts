import { checkOptions } from './options'
import { checkMoment } from './times'
import { callTuples } from './wire'

export interface AuthorizeOptions {
  /** Seconds from now until it expires. */
  ttl?: number
  /** Unix seconds it expires at. */
  expiry?: number
  /** Needed for insecure abilities (`auth.create`, `<service>.create`, …). */
  insecure?: boolean
  /** The token that creates it: the secret by default, or an authorization holding `auth.create`. */
  token?: string
}

const AUTHORIZE_OPTIONS: ReadonlySet<string> = new Set([
  'ttl',
  'expiry',
  'insecure',
  'token',
] satisfies Array<keyof AuthorizeOptions>)

/**
 * The arguments of an `auth.create` call, the one way every helper writes them: `abilities`,
 * then `ttl`, `expiry` and `insecure` when given.
 */
export function authCreateArgs(
  abilities: readonly string[],
  options: Omit<AuthorizeOptions, 'token'> = {},
): Record<string, unknown> {
  const args: Record<string, unknown> = { abilities: [...abilities] }
  for (const name of ['ttl', 'expiry', 'insecure'] as const) {
    if (options[name] !== undefined) args[name] = options[name]
  }
  return args
}

/** The body of an `auth.create` call in the tuple format. */
export const authCreateBody = (
  abilities: readonly string[],
  options: Omit<AuthorizeOptions, 'token'> = {},
): string => JSON.stringify(callTuples<unknown>(undefined, authCreateArgs(abilities, options)))

/** Mints an authorization through the engine's own wire, as a client would. */
export async function authorizeThrough(
  send: (request: Request) => Promise<Response>,
  { baseUrl, serviceName, token }: { baseUrl: string; serviceName: string; token: string },
  abilities: string[],
  options: AuthorizeOptions = {},
): Promise<string> {
  checkOptions('authorize', options, AUTHORIZE_OPTIONS)
  checkMoment('expiry', options.expiry)
  const response = await send(
    new Request(`${baseUrl}/auth/create`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${options.token ?? token}`,
        'content-type': `application/vnd.${serviceName}+json`,
        accept: 'text/plain',
      },
      body: authCreateBody(abilities, options),
    }),
  )
  const text = await response.text()
  if (response.status !== 200) throw new Error(`auth.create answered ${response.status}: ${text}`)
  return text
}
