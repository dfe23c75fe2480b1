/**
 * Where a request goes, decided once from its URL path: every layer that cares (the engine,
 * the HTTP server's control-token gate) asks this function, so that no two of them can read
 * one path two ways.
 */
export type Route =
  /** Not below the base URL's path. */
  | { kind: 'outside' }
  /** A path that more than one reader could take for different things; refused with 400. */
  | { kind: 'ambiguous'; reason: string }
  /** The account control plane: `path` is what follows `_account/` (may be empty). */
  | { kind: 'control'; path: string }
  /** An endpoint call: `path` is `a/b/c` for `a.b.c` (may be empty or not a name). */
  | { kind: 'call'; path: string }

export const CONTROL_SEGMENT = '_account'

/**
 * Routes `pathname` (as `new URL(request.url).pathname` gives it) below `basePath` (the base
 * URL's path without a trailing slash). One leading slash and one trailing slash are allowed;
 * an empty segment (`//`), a dot segment, or a segment whose percent-decoding holds a slash,
 * a backslash or a dot segment is ambiguous.
 */
export function routeOf(pathname: string, basePath: string): Route {
  if (basePath && pathname !== basePath && !pathname.startsWith(`${basePath}/`)) {
    return { kind: 'outside' }
  }
  let rest = pathname.slice(basePath.length)
  if (rest.startsWith('/')) rest = rest.slice(1)
  if (rest.endsWith('/')) rest = rest.slice(0, -1)
  if (rest === '') return { kind: 'call', path: '' }
  const segments = rest.split('/')
  for (const segment of segments) {
    const problem = ambiguity(segment)
    if (problem) return { kind: 'ambiguous', reason: problem }
  }
  return routeOfSegments(segments, rest)
}

/**
 * The route of path segments `routeOf` has already read and found unambiguous, such as those
 * below a hosted account's prefix: a layer in front of the engine reads a path once, and hands
 * the engine the route of what is below its own part.
 */
export function routeOfSegments(segments: readonly string[], path = segments.join('/')): Route {
  const [first] = segments
  if (first === undefined) return { kind: 'call', path: '' }
  if (first === CONTROL_SEGMENT) return { kind: 'control', path: path.slice(first.length + 1) }
  if (first.includes('%') && safeDecode(first) === CONTROL_SEGMENT) {
    return { kind: 'ambiguous', reason: `\`${first}' is ${CONTROL_SEGMENT} percent-encoded` }
  }
  return { kind: 'call', path }
}

function ambiguity(segment: string): string | undefined {
  if (segment === '') return 'it has an empty segment (//)'
  const decoded = segment.includes('%') ? safeDecode(segment) : segment
  if (decoded === '.' || decoded === '..') return `it has a dot segment (\`${segment}')`
  if (decoded.includes('/') || decoded.includes('\\') || segment.includes('\\')) {
    return `it has an encoded slash or a backslash (\`${segment}')`
  }
  return undefined
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
