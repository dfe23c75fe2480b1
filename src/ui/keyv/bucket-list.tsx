import { useQuery, type UseQueryResult } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import type { BucketCount } from '../../engine'
import { useConfig } from '../shared/config'
import { Field } from '../shared/field'
import { messageOf } from '../shared/format'
import { Name } from '../shared/quoted'
import { reachableQuery } from './queries'
import { scanReach } from './reach'

/** The token the view acts with: its key and, for an authorization, its abilities. */
export interface Acting {
  token: string
  /** `undefined` for a secret, which reaches every key. */
  abilities?: readonly string[] | undefined
}

const keysText = (count: number) => `${count} ${count === 1 ? 'key' : 'keys'}`

/**
 * A bucket's count of keys as the token acting sees it: the account's count when it reaches
 * every key, otherwise how many of them it reaches (counted through `keyv.scan` under its
 * limits), or that it reaches none.
 */
function BucketCountText({
  acting,
  bucket,
  keys,
}: {
  acting: Acting
  bucket: string
  keys: number
}) {
  const config = useConfig()
  const reach = scanReach(acting.abilities, bucket)
  const prefixes = reach.kind === 'prefixes' ? reach.prefixes : []
  const counted = useQuery({
    ...reachableQuery(config, acting.token, bucket, prefixes),
    enabled: reach.kind === 'prefixes',
  })
  if (reach.kind === 'all') return <>{keysText(keys)}</>
  if (reach.kind === 'none') return <>{keysText(keys)}, none reachable with this token</>
  if (!counted.data) return <>{keysText(keys)}, counting those this token reaches…</>
  const { count, atLeast } = counted.data
  return (
    <>
      {atLeast ? 'at least ' : ''}
      {count} of {keysText(keys)} reachable
    </>
  )
}

/**
 * The account's buckets with their counts of keys (as the token acting reaches them), and a way
 * to open any bucket by name.
 */
export function BucketList({
  query,
  current,
  acting,
  onOpen,
}: {
  query: UseQueryResult<BucketCount[]>
  current: string
  acting: Acting | undefined
  onOpen: (bucket: string) => void
}) {
  const [name, setName] = useState('')
  const [problem, setProblem] = useState<string | null>(null)

  function open(event: FormEvent) {
    event.preventDefault()
    const bucket = name.trim()
    if (bucket.length < 1 || bucket.length > 256) {
      setProblem('A bucket name is 1 to 256 characters.')
      return
    }
    setProblem(null)
    setName('')
    onOpen(bucket)
  }

  return (
    <section aria-labelledby="keyv-buckets-heading" className="keyv-buckets">
      <h3 id="keyv-buckets-heading">Buckets</h3>
      {query.isError && <p role="alert">{messageOf(query.error)}</p>}
      {query.isPending && <p className="muted">Loading buckets…</p>}
      {query.data?.length === 0 && (
        <p className="empty">
          No buckets yet: a bucket appears with its first key. Add a key (it goes in{' '}
          <code>
            <Name text={current} />
          </code>
          ), or open another bucket by name below.
        </p>
      )}
      {query.data && query.data.length > 0 && (
        <ul aria-label="Buckets">
          {query.data.map(({ bucket, keys }) => (
            <li key={bucket}>
              <button
                type="button"
                aria-current={bucket === current ? 'true' : undefined}
                onClick={() => onOpen(bucket)}
              >
                <span className="bucket-name">
                  <Name text={bucket} />
                </span>
                <span className="bucket-count" data-testid="bucket-count">
                  {acting ? (
                    <BucketCountText acting={acting} bucket={bucket} keys={keys} />
                  ) : (
                    keysText(keys)
                  )}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="keyv-open" onSubmit={open} noValidate>
        <Field label="Open a bucket by name">
          {(id) => (
            <input
              id={id}
              value={name}
              placeholder="users"
              aria-invalid={problem ? true : undefined}
              onChange={(event) => setName(event.target.value)}
            />
          )}
        </Field>
        <button type="submit">Open</button>
        {problem && <p role="alert">{problem}</p>}
      </form>
    </section>
  )
}
