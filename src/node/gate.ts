import { createHash, timingSafeEqual } from 'node:crypto'
import type { Engine } from '../engine'

export interface GateOptions {
  /**
   * The bearer token `/_account/*` requires. Without one the control plane is open, as it is to
   * the page in a browser: only for a server no one else can reach (tests in one process).
   */
  controlToken?: string
  /** The address the server listens on. */
  host: string
  /** Further names requests may give in `Host`, beside the loopback ones and `host`. */
  allowedHosts?: readonly string[]
}

const LOOPBACK = ['127.0.0.1', 'localhost', '::1']
const WILDCARD = ['0.0.0.0', '::']

/** Whether `host` (an address or name to listen on) keeps the server on this machine. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.includes(host) || /^127\.\d+\.\d+\.\d+$/.test(host)
}

const digest = (text: string) => createHash('sha256').update(text).digest()

/** Compares two secrets in time that does not depend on where they differ, nor on their lengths. */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected))
}

function refuse(status: number, message: string): Response {
  return new Response(JSON.stringify({ error: { message } }), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

/** The token of `bearer <token>`, and nothing else on the line; `undefined` otherwise. */
function bearerToken(header: string | null): string | undefined {
  return /^bearer +([^\s]+) *$/i.exec(header ?? '')?.[1]
}

/** The name in a `Host` header, without its port and brackets, lowercased. */
function hostName(header: string): string {
  const name = header.startsWith('[') ? header.slice(1, header.indexOf(']')) : header.split(':')[0]!
  return name.toLowerCase()
}

/**
 * What `serve` checks before the engine sees a request: the `Host` names this server (a page
 * that rebinds its own name to 127.0.0.1 gets nothing), and the account control plane carries
 * the control token. Endpoint calls carry their own secrets and authorizations.
 */
export function gate(
  engine: Pick<Engine, 'handle' | 'route'>,
  { controlToken, host, allowedHosts = [] }: GateOptions,
): (request: Request) => Promise<Response> {
  const names = new Set([...LOOPBACK, ...allowedHosts, host].map((name) => hostName(name)))
  // Bound to every interface, the server cannot know the names it is reached by, unless told.
  const checkHost = !WILDCARD.includes(host) || allowedHosts.length > 0
  return async (request) => {
    const header = request.headers.get('host') ?? ''
    if (checkHost && !names.has(hostName(header))) {
      return refuse(
        403,
        `this server does not answer for host \`${header}'; start serve with --allowed-host ${hostName(header) || '<name>'} to allow it`,
      )
    }
    // The engine's own reading of the path, so that no spelling of it reaches the control
    // plane past this check.
    const { pathname } = new URL(request.url)
    if (controlToken !== undefined && engine.route(pathname).kind === 'control') {
      const token = bearerToken(request.headers.get('authorization'))
      if (token === undefined || !sameSecret(token, controlToken)) {
        return refuse(
          401,
          'the account control plane needs the control token: send authorization: bearer <control token>, as serve printed it at start',
        )
      }
    }
    return engine.handle(request)
  }
}
