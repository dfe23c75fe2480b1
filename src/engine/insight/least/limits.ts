/** How far one least-privilege report follows a journal: past each bound, what is left is counted. */

/** The most tokens one report follows; the rest are counted. */
export const MAX_TOKENS = 1_000
/** The most distinct calls of one token kept to replay. */
export const MAX_REPLAYED = 200
/** The most distinct endpoint-and-target pairs of one token kept to check against the rules. */
export const MAX_CHECKED = 1_000
/** The most distinct bearer tokens remembered to keep out of a report. */
export const MAX_BEARERS = 100_000
/** The most buckets followed per endpoint and granting ability; past it, that ability's limits are kept. */
export const MAX_BUCKETS = 64
