import type { ReachEndpoint, ReachPackage, ReachReport } from '../../engine'

/**
 * The shapes the "What can this token do?" grid draws, worked out of a reach report: the
 * catalogue as a tree of packages, and the key-value regions the token reaches. Pure, so that
 * any report the engine gives (a thousand procedures, names with hidden characters) is tested
 * without a page.
 */

/** A package and what is below it: its sub-packages, then its own endpoints. */
export interface PackageNode {
  info: ReachPackage
  packages: PackageNode[]
  endpoints: ReachEndpoint[]
  /** Endpoints below it at any depth, for filtering. */
  all: ReachEndpoint[]
}

/** The package of a name: the longest dotted prefix of it that is a package of the report. */
function parentOf(name: string, known: ReadonlyMap<string, PackageNode>): PackageNode | undefined {
  for (let end = name.lastIndexOf('.'); end > 0; end = name.lastIndexOf('.', end - 1)) {
    const found = known.get(name.slice(0, end))
    if (found) return found
  }
  return undefined
}

/**
 * The report's packages as a tree (top-level packages first, in the report's order), each
 * endpoint under its nearest package. An endpoint the report puts in no package is kept under
 * one named after its first segment, so nothing the engine lists goes missing.
 */
export function reachTree(report: Pick<ReachReport, 'packages' | 'endpoints'>): PackageNode[] {
  const known = new Map<string, PackageNode>()
  for (const info of report.packages) {
    if (!known.has(info.package)) {
      known.set(info.package, { info, packages: [], endpoints: [], all: [] })
    }
  }
  const roots: PackageNode[] = []
  for (const node of known.values()) {
    const parent = parentOf(node.info.package, known)
    if (parent) parent.packages.push(node)
    else roots.push(node)
  }
  for (const endpoint of report.endpoints) {
    let parent = parentOf(endpoint.endpoint, known)
    if (!parent) {
      const name = endpoint.package || endpoint.endpoint
      parent = {
        info: { package: name, endpoints: 0, allowed: 0, decision: 'none' },
        packages: [],
        endpoints: [],
        all: [],
      }
      known.set(name, parent)
      roots.push(parent)
    }
    parent.endpoints.push(endpoint)
    for (
      let node: PackageNode | undefined = parent;
      node;
      node = parentOf(node.info.package, known)
    ) {
      node.all.push(endpoint)
    }
  }
  for (const node of known.values()) {
    if (node.info.endpoints === 0 && node.all.length > 0) {
      const allowed = node.all.filter((e) => e.decision === 'allowed').length
      node.info = {
        ...node.info,
        endpoints: node.all.length,
        allowed,
        decision: allowed === node.all.length ? 'all' : allowed === 0 ? 'none' : 'some',
      }
    }
  }
  return roots
}

/** One region of the key-value store and the endpoints that reach it there. */
export interface KeyRegion {
  /** `null`: any key. */
  prefix: string | null
  endpoints: Array<{ endpoint: string; ability: string | null }>
}

/** A bucket (`null`: any bucket) and the regions of it the token reaches. */
export interface BucketRegion {
  bucket: string | null
  regions: KeyRegion[]
}

const byName = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1

/**
 * Where in the key-value store the token reaches, bucket by bucket and prefix by prefix, with
 * the endpoints (and the ability) that reach each region. An allowed key-value endpoint without
 * limits reaches any bucket and any key.
 */
export function keyRegions(report: Pick<ReachReport, 'endpoints'>): BucketRegion[] {
  const buckets = new Map<string | null, Map<string | null, KeyRegion>>()
  const add = (
    bucket: string | null,
    prefix: string | null,
    endpoint: string,
    ability: string | null,
  ) => {
    let regions = buckets.get(bucket)
    if (!regions) buckets.set(bucket, (regions = new Map()))
    let region = regions.get(prefix)
    if (!region) regions.set(prefix, (region = { prefix, endpoints: [] }))
    if (!region.endpoints.some((e) => e.endpoint === endpoint && e.ability === ability)) {
      region.endpoints.push({ endpoint, ability })
    }
  }
  for (const endpoint of report.endpoints) {
    if (endpoint.package !== 'keyv' || endpoint.decision !== 'allowed') continue
    if (endpoint.limits === null) add(null, null, endpoint.endpoint, endpoint.ability)
    else
      for (const limit of endpoint.limits)
        add(limit.bucket, limit.prefix, endpoint.endpoint, limit.ability)
  }
  return [...buckets]
    .sort(([a], [b]) => byName(a, b))
    .map(([bucket, regions]) => ({
      bucket,
      regions: [...regions.values()].sort((a, b) => byName(a.prefix, b.prefix)),
    }))
}

/** One moment in a token's life, for its timeline. */
export interface LifeEvent {
  kind: 'created' | 'now' | 'expires' | 'roll'
  at: number
  /** This is when it stops working (the earlier of its expiry and its secret's roll). */
  stops: boolean
}

/**
 * The moments of a token's life the report knows, in time order: made, now (the moment asked
 * about), its expiry, its secret's roll. Times no calendar can hold are kept: they sort as
 * numbers and read as Unix times.
 */
export function lifeEvents(report: Pick<ReachReport, 'at' | 'token' | 'stops'>): LifeEvent[] {
  const { token, stops } = report
  const events: LifeEvent[] = []
  if (token.createdAt !== null) events.push({ kind: 'created', at: token.createdAt, stops: false })
  events.push({ kind: 'now', at: report.at, stops: false })
  if (token.kind === 'authorization' && token.expiresAt !== null) {
    events.push({
      kind: 'expires',
      at: token.expiresAt,
      stops: stops.because === 'expiry' && stops.at === token.expiresAt,
    })
  }
  if (token.secretExpiresAt !== null) {
    events.push({
      kind: 'roll',
      at: token.secretExpiresAt,
      stops: stops.because === 'roll' && stops.at === token.secretExpiresAt,
    })
  }
  const order: Record<LifeEvent['kind'], number> = { created: 0, now: 1, expires: 2, roll: 3 }
  return events.sort((a, b) =>
    a.at === b.at ? order[a.kind] - order[b.kind] : a.at < b.at ? -1 : 1,
  )
}
