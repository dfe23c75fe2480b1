import type { ReachReport } from '../../engine'
import { Name } from '../shared/quoted'
import { keyRegions } from './reach-tree'

/**
 * Where in the key-value store a token reaches, drawn as a tree: bucket, then key prefix, then
 * the endpoints (and the ability) that reach there. Names show the characters they hide.
 */
export function KeyRegions({ report }: { report: ReachReport }) {
  const buckets = keyRegions(report)
  return (
    <div className="key-regions" data-testid="reach-keyv">
      <h4>Key-value store it reaches</h4>
      {buckets.length === 0 ? (
        <p className="muted">None: it can call no key-value endpoint.</p>
      ) : (
        <ul className="region-tree" aria-label="Buckets and key prefixes it reaches">
          {buckets.map(({ bucket, regions }) => (
            <li key={bucket ?? '\u0000any'} data-testid="reach-bucket">
              <span className="region-name">
                {bucket === null ? (
                  <strong>Any bucket</strong>
                ) : (
                  <>
                    bucket{' '}
                    <code>
                      <Name text={bucket} />
                    </code>
                  </>
                )}
              </span>
              <ul>
                {regions.map(({ prefix, endpoints }) => (
                  <li key={prefix ?? '\u0000any'} data-testid="reach-prefix">
                    <span className="region-name">
                      {prefix === null ? (
                        'any key'
                      ) : (
                        <>
                          keys starting{' '}
                          <code>
                            <Name text={prefix} />
                          </code>
                        </>
                      )}
                    </span>
                    <ul className="region-endpoints">
                      {endpoints.map(({ endpoint, ability }) => (
                        <li key={`${endpoint}\u0000${ability ?? ''}`}>
                          <code>
                            <Name text={endpoint} />
                          </code>
                          {ability && ability !== endpoint && (
                            <span className="muted">
                              {' '}
                              by{' '}
                              <code>
                                <Name text={ability} />
                              </code>
                            </span>
                          )}
                        </li>
                      ))}
                    </ul>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
