import { createHash, timingSafeEqual } from 'node:crypto'
import type { Reply } from '../engine'
import { refusal } from '../engine/wire/response'

export interface GateOptions {
  /**
   * The bearer token `/_account/*` (and `/_accounts`) requires. Without one the control plane is
   * open, as it is to the page in a browser: only for a server no one else can reach (tests in
   * one process).
   */
  controlToken?: string
  /** The address the server listens on. */
  host: string
  /** Further names requests may give in `Host`, beside the loopback ones and `host`. */
  allowedHosts?: readonly string[]
}

const LOOPBACK = ['127.0.0.1', 'localhost', '::1']
const WILDCARD = ['0.0.0.0', '::']

/**
 * A host name or address as compared, whichever way it is spelled: lowercase, an IPv6 address
 * without brackets and compressed (`::1`), an IPv4 address dotted (`127.0.0.1`); `undefined`
 * for anything that is neither a name nor an address. The one reading of `--host`,
 * `--allowed-host` and `Host` headers.
 */
export function canonicalHost(text: string): string | undefined {
  const bare = /^\[.*\]$/.test(text) ? text.slice(1, -1) : text
  if (!/^[A-Za-z0-9.:-]+$/.test(bare)) return undefined
  try {
    const { hostname } = new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}`)
    return hostname.replace(/^\[(.*)\]$/, '$1')
  } catch {
    return undefined
  }
}

/** Whether `host` (an address or name to listen on) keeps the server on this machine. */
export function isLoopback(host: string): boolean {
  const name = canonicalHost(host)
  return name !== undefined && (LOOPBACK.includes(name) || /^127\.\d+\.\d+\.\d+$/.test(name))
}

const digest = (text: string) => createHash('sha256').update(text).digest()

/** Compares two secrets in time that does not depend on where they differ, nor on their lengths. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected))
}

/** The name a `Host` header gives, without its port, as `canonicalHost` reads it. */
function hostName(header: string): string | undefined {
  const name = /^(\[[^\]]*\]|[^:[\]]*)(?::\d{1,5})?$/.exec(header)?.[1]
  return name === undefined ? undefined : canonicalHost(name)
}

/**
 * Whether a `Host` header names this server: one of the loopback names, `host`, or one of
 * `allowedHosts`. Bound to every interface, the server cannot know the names it is reached by,
 * so then any name is allowed unless `allowedHosts` are given.
 */
export function hostAllowed({
  host,
  allowedHosts = [],
}: Pick<GateOptions, 'host' | 'allowedHosts'>): (header: string) => boolean {
  const names = new Set([...LOOPBACK, ...allowedHosts, host].map(canonicalHost))
  names.delete(undefined)
  const check = !WILDCARD.includes(canonicalHost(host) ?? host) || allowedHosts.length > 0
  // A client sends the same Host on every request: the last one's reading is kept.
  let last: { header: string; allowed: boolean } | undefined
  return (header) => {
    if (!check) return true
    if (last?.header !== header) {
      const name = hostName(header)
      last = { header, allowed: name !== undefined && names.has(name) }
    }
    return last.allowed
  }
}

/**
 * What `serve` checks before anything else: the request gives one `Host` (none, an empty one or
 * two are a 400, as RFC 9112 has it: Node's own reading keeps the first of two, a proxy in
 * front may read the other), and it names this server, so a page that rebinds its own name to
 * 127.0.0.1 gets nothing (403, saying how to allow the name). The control token is the host's
 * to check (`host.ts`), on the same reading of the path the engine routes on.
 */
export function checkHost(
  options: Pick<GateOptions, 'host' | 'allowedHosts'>,
): (hosts: readonly string[]) => Reply | undefined {
  const allowed = hostAllowed(options)
  return (hosts) => {
    if (hosts.length > 1) {
      // Closed after the answer: readers in front of it may have taken the request apart otherwise.
      const reply = refusal(
        400,
        `the request gives ${hosts.length} Host headers: send one, naming this server`,
      )
      return { ...reply, headers: { ...reply.headers, connection: 'close' } }
    }
    const header = hosts[0] ?? ''
    if (allowed(header)) return undefined
    if (header.trim() === '') {
      return refusal(
        400,
        'the request names no host: send a Host header naming this server, such as the host and port of the URL serve printed',
      )
    }
    return refusal(
      403,
      `this server does not answer for host \`${header}'; start serve with --allowed-host ${hostName(header) ?? '<name>'} to allow it`,
    )
  }
}
