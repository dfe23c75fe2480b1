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

/** Whether `host` (an address or name to listen on) keeps the server on this machine. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.includes(host) || /^127\.\d+\.\d+\.\d+$/.test(host)
}

const digest = (text: string) => createHash('sha256').update(text).digest()

/** Compares two secrets in time that does not depend on where they differ, nor on their lengths. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected))
}

/** The name in a `Host` header, without its port and brackets, lowercased. */
function hostName(header: string): string {
  const name = header.startsWith('[') ? header.slice(1, header.indexOf(']')) : header.split(':')[0]!
  return name.toLowerCase()
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
  const names = new Set([...LOOPBACK, ...allowedHosts, host].map((name) => hostName(name)))
  const check = !WILDCARD.includes(host) || allowedHosts.length > 0
  // A client sends the same Host on every request: the last one's reading is kept.
  let last: { header: string; allowed: boolean } | undefined
  return (header) => {
    if (!check) return true
    if (last?.header !== header) last = { header, allowed: names.has(hostName(header)) }
    return last.allowed
  }
}

/**
 * What `serve` checks before anything else: the `Host` names this server, so a page that
 * rebinds its own name to 127.0.0.1 gets nothing (403, saying how to allow the name). The
 * control token is the host's to check (`host.ts`), on the same reading of the path the engine
 * routes on.
 */
export function checkHost(
  options: Pick<GateOptions, 'host' | 'allowedHosts'>,
): (header: string) => Reply | undefined {
  const allowed = hostAllowed(options)
  return (header) =>
    allowed(header)
      ? undefined
      : refusal(
          403,
          `this server does not answer for host \`${header}'; start serve with --allowed-host ${hostName(header) || '<name>'} to allow it`,
        )
}
