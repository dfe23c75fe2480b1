// `toReach` and `toBeNarrowerThan` for Vitest: `await expect(token).toReach('keyv.get', { bucket:
// 'users' })`, `await expect(child).toBeNarrowerThan(parent)` (decision 055).
import { expect } from 'vitest'
import { insightMatchers, type ReachWhere, type UseSlack } from './reach-matchers'

expect.extend(insightMatchers)

declare module 'vitest' {
  // The type parameter must read as vitest declares it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  interface Matchers<T = any> {
    /**
     * The token can call `endpoint` now (somewhere in `where`: a bucket, a key prefix, or one
     * key), as the service decides it. Await it: the service is asked. A value that is not a
     * token of the running service, an endpoint it does not have or a key `where` does not read
     * is an error, with `.not` too.
     */
    toReach(endpoint: string, where?: ReachWhere): Promise<T>
    /** The token reaches nothing its parent does not (the service's diff finds no item). */
    toBeNarrowerThan(parent: string): Promise<T>
    /**
     * The token reaches nothing beyond what the journal shows it using (`slack.endpoints`
     * endpoints more at most), by the service's least privilege (decision 090). Await it.
     */
    toBeNoWiderThanItsUse(slack?: UseSlack): Promise<T>
  }
}
