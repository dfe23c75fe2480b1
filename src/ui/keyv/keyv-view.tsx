import './keyv.css'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useConfig } from '../shared/config'
import { bucketsQuery, keys } from '../shared/queries'
import { useRouteParam } from '../shared/router'
import { TokenSelect, useChosenToken } from '../shared/token-select'
import { BucketList } from './bucket-list'
import { KeysPanel } from './keys-panel'
import { keyvReach } from './reach'

/** The open bucket, kept in the view's URL. */
const useBucketParam = () => useRouteParam('keyv', 'bucket')
/** The key prefix the list is filtered by, kept in the view's URL. */
const usePrefixParam = () => useRouteParam('keyv', 'prefix')

/**
 * The key-value store: its buckets (with their counts, from the control plane) and, for the
 * open bucket, its keys page by page and their values, read and written through `keyv.scan`,
 * `get`, `set` and `delete` with the chosen token, so an authorization sees exactly what its
 * abilities reach; one held to a bucket or a key prefix opens there. The token, bucket and
 * prefix live in the fragment.
 */
export default function KeyvView() {
  const { baseUrl } = useConfig()
  const queryClient = useQueryClient()
  const { choices, chosen, choose, loading } = useChosenToken('keyv')
  const [asked, setBucket] = useBucketParam()
  const [askedPrefix, setPrefix] = usePrefixParam()
  const buckets = useQuery(bucketsQuery(baseUrl))
  const reach =
    chosen?.kind === 'authorization' ? keyvReach(chosen.report?.details?.abilities) : undefined
  const bucket = asked || reach?.bucket || buckets.data?.[0]?.bucket || 'default'
  const prefix = askedPrefix ?? reach?.prefix ?? ''
  // An authorization's reach is known once the engine has said what it holds.
  const ready = chosen && (chosen.kind === 'secret' || chosen.report !== undefined)

  return (
    <section aria-labelledby="keyv-heading" className="panel keyv-view">
      <div className="panel-heading">
        <h2 id="keyv-heading">Key-value</h2>
        <button
          type="button"
          onClick={() => void queryClient.invalidateQueries({ queryKey: keys.keyv(baseUrl) })}
        >
          Refresh
        </button>
      </div>
      <p className="muted">
        Buckets of keys and their JSON values. Keys are listed and changed through{' '}
        <code>keyv.scan</code>, <code>get</code>, <code>set</code> and <code>delete</code> with the
        token chosen here: acting with an authorization shows only what it may reach.
      </p>
      <TokenSelect choices={choices} chosen={chosen} onChoose={choose} loading={loading} />
      <div className="keyv-layout">
        <BucketList
          query={buckets}
          current={bucket}
          acting={
            chosen && ready
              ? {
                  token: chosen.token,
                  abilities:
                    chosen.kind === 'secret'
                      ? undefined
                      : (chosen.report?.details?.abilities ?? []),
                }
              : undefined
          }
          onOpen={setBucket}
        />
        {chosen && ready && (asked || reach?.bucket || !buckets.isPending) && (
          <KeysPanel token={chosen.token} bucket={bucket} prefix={prefix} onPrefix={setPrefix} />
        )}
      </div>
    </section>
  )
}
