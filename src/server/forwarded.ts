/**
 * The origin a client called `serve` by through a front (a reverse proxy, a TLS terminator, a
 * gateway), as the front says it in `Forwarded` (RFC 7239) or `X-Forwarded-Host` and
 * `X-Forwarded-Proto`: read only when `serve --trust-proxy` says the front is to be believed.
 * The links and account URLs `serve` makes then name that origin, not the address the front
 * itself called (decision 095).
 */

/** A host as a URL may hold it: a name or IPv4 address, or an IPv6 one in brackets; a port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)(?::\d{1,5})?$/
/** RFC 7230's `token`: what a parameter's name, or an unquoted value, is made of. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** A front's header that cannot be read: the message names it and says why, never echoing it. */
export interface ForwardedProblem {
  problem: string
}

/**
 * The elements of a `Forwarded` header, each its parameters by lowercase name; a problem for
 * text that is not RFC 7239's grammar (a parameter twice in one element, a quote left open).
 */
export function parseForwarded(header: string): Array<Map<string, string>> | ForwardedProblem {
  const elements: Array<Map<string, string>> = []
  let element = new Map<string, string>()
  let at = 0
  const skipSpace = () => {
    while (header[at] === ' ' || header[at] === '\t') at++
  }
  for (;;) {
    skipSpace()
    const equals = header.indexOf('=', at)
    const name = (equals < 0 ? '' : header.slice(at, equals)).trim().toLowerCase()
    if (equals < 0 || !TOKEN.test(name)) {
      // An empty element or pair (`a=1;;b=2`, `a=1, ,b=2`) is allowed; anything else is not.
      if (header[at] === ';' || header[at] === ',') {
        if (header[at] === ',') elements.push((element = new Map()))
        at++
        continue
      }
      if (at >= header.length) break
      return { problem: 'a parameter is not name=value' }
    }
    at = equals + 1
    let value: string
    if (header[at] === '"') {
      value = ''
      at++
      while (at < header.length && header[at] !== '"') {
        if (header[at] === '\\') at++
        value += header[at] ?? ''
        at++
      }
      if (header[at] !== '"') return { problem: 'a quoted value is not closed' }
      at++
    } else {
      const end = header.slice(at).search(/[;,\s]/)
      value = end < 0 ? header.slice(at) : header.slice(at, at + end)
      if (!TOKEN.test(value))
        return { problem: `the value of ${name} is neither a token nor quoted` }
      at += value.length
    }
    if (element.has(name)) return { problem: `one element gives ${name} twice` }
    if (elements.length === 0) elements.push(element)
    element.set(name, value)
    skipSpace()
    if (at >= header.length) break
    if (header[at] === ';') at++
    else if (header[at] === ',') {
      at++
      elements.push((element = new Map()))
    } else return { problem: 'parameters are not separated by ; or elements by ,' }
  }
  return elements.filter((e) => e.size > 0)
}

/** The first value of a comma-separated header, as proxies append theirs after the client's. */
const firstOf = (value: string) => value.split(',')[0]!.trim()

/**
 * The origin the client called, as the front tells it: `Forwarded`'s first element (its `host`
 * and `proto`) when the request has that header, else `X-Forwarded-Host` and
 * `X-Forwarded-Proto` (their first values). What the front does not say is the request's own
 * (`host` from its `Host` header, `http` as it reached `serve`). `undefined` when no front
 * said anything; a `ForwardedProblem` for a header that is not a host, or not http or https.
 */
export function forwardedOrigin(
  header: (name: string) => string | null,
  host: string,
): string | undefined | ForwardedProblem {
  let given: { host?: string; proto?: string; hostFrom: string; protoFrom: string }
  const forwarded = header('forwarded')
  if (forwarded !== null) {
    const elements = parseForwarded(forwarded)
    if ('problem' in elements) {
      return { problem: `the Forwarded header is not RFC 7239's (${elements.problem})` }
    }
    const first = elements[0]
    if (!first) return undefined
    given = {
      hostFrom: 'Forwarded',
      protoFrom: 'Forwarded',
      host: first.get('host'),
      proto: first.get('proto'),
    }
  } else {
    const xHost = header('x-forwarded-host')
    const xProto = header('x-forwarded-proto')
    if (xHost === null && xProto === null) return undefined
    given = {
      hostFrom: 'X-Forwarded-Host',
      protoFrom: 'X-Forwarded-Proto',
      ...(xHost === null ? {} : { host: firstOf(xHost) }),
      ...(xProto === null ? {} : { proto: firstOf(xProto) }),
    }
  }
  if (given.host === undefined && given.proto === undefined) return undefined
  const proto = (given.proto ?? 'http').toLowerCase()
  if (proto !== 'http' && proto !== 'https') {
    return { problem: `the ${given.protoFrom} header's proto is neither http nor https` }
  }
  const name = given.host ?? host
  if (!HOST.test(name)) {
    return {
      problem: `the ${given.hostFrom} header's host is not a host name or address with a port`,
    }
  }
  try {
    const url = new URL(`${proto}://${name}`)
    // A port past 65535, or an address the parser refuses, makes no URL: not an origin.
    return url.origin
  } catch {
    return {
      problem: `the ${given.hostFrom} header's host is not a host name or address with a port`,
    }
  }
}
