/**
 * The services running now, as the policy matchers find them: each registers its insight while
 * its test runs, and a matcher asks the newest one that knows the token it is given.
 */
import type {
  DiffReport,
  LeastPrivilegeReport,
  PolicyCheck,
  ReachReport,
  SimulateCall,
  SimulateReport,
} from '../engine/insight'

/** What the matchers ask of a running service. */
export interface InsightSource {
  reach(token: string, at?: number): Promise<ReachReport>
  simulate(token: string, calls: SimulateCall[], at?: number): Promise<SimulateReport>
  diff(a: string, b: string, at?: number): Promise<DiffReport>
  leastPrivilege(token: string): Promise<LeastPrivilegeReport>
  /** Takes what a passing `toReach` showed, for coverage (names of abilities, no token). */
  checked?(check: PolicyCheck): void
}

/** The services running now, newest last: the matchers ask the one that knows the token. */
const running: InsightSource[] = []

/** Registers a running service; returns how to take it away. */
export function registerInsight(source: InsightSource): () => void {
  running.push(source)
  return () => {
    const at = running.lastIndexOf(source)
    if (at !== -1) running.splice(at, 1)
  }
}

/** The newest service that signed `token` or holds it as a secret, with its reach. */
async function knowing(
  token: string,
): Promise<{ source: InsightSource; report: ReachReport } | undefined> {
  for (const source of [...running].reverse()) {
    const report = await source.reach(token)
    if (
      !['unknown_token', 'bad_signature', 'missing', 'malformed'].includes(
        report.token.reason ?? '',
      )
    ) {
      return { source, report }
    }
  }
  return undefined
}

/** What was received in place of a token, said without its value (it may be a secret). */
export function describeReceived(value: unknown): string {
  if (value instanceof Promise || (typeof value === 'object' && value !== null && 'then' in value))
    return 'a Promise (await the token first: `await service.authorize(…)`)'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return `a string of ${value.length} characters`
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`
}

/**
 * The newest service that knows `token`, or an error naming what was received: a matcher
 * cannot judge what is not a token of a running service.
 */
export async function known(
  matcher: string,
  what: string,
  token: unknown,
): Promise<{ source: InsightSource; report: ReachReport }> {
  if (typeof token !== 'string' || token === '') {
    throw new TypeError(
      `${matcher}: ${what} must be a token (a string), but received ${describeReceived(token)}`,
    )
  }
  if (running.length === 0) {
    throw new Error(
      `${matcher}: no service is running: use it inside a test of a file that calls useService (Vitest, Jest) or uses the service fixture (Playwright)`,
    )
  }
  const found = await knowing(token)
  if (!found) {
    throw new Error(
      `${matcher}: ${what} is not a token of the running service: received ${describeReceived(token)} that it neither signed nor holds as a secret`,
    )
  }
  return found
}
