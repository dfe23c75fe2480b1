import './keyv.css'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { replaceParams, useRoute } from '../router'
import { useConfig } from '../shared/config'
import { TokenSelect, useChosenToken } from '../shared/token-select'
import { BucketList } from './bucket-list'
import { KeysPanel } from './keys-panel'
import { bucketsQuery, keyvKeys } from './queries'

/**
 * The key-value store: its buckets (with their counts, from the control plane) and, for the
 * open bucket, its keys page by page and their values, read and written through `keyv.scan`,
 * `get`, `set` and `delete` with the chosen token, so an authorization sees exactly what its
 * abilities reach. The token, bucket and prefix live in the fragment.
 */
export default function KeyvView() {
  const { baseUrl } = useConfig()
  const queryClient = useQueryClient()
  const { params } = useRoute()
  const { choices, chosen, choose, loading } = useChosenToken('keyv')
  const buckets = useQuery(bucketsQuery(baseUrl))
  const asked = params.get('bucket')
  const bucket = asked || buckets.data?.[0]?.bucket || 'default'
  const prefix = params.get('prefix') ?? ''

  function setParam(name: string, value: string) {
    const next = new URLSearchParams(params)
    if (value) next.set(name, value)
    else next.delete(name)
    replaceParams('keyv', next)
  }

  return (
    <section aria-labelledby="keyv-heading" className="panel keyv-view">
      <div className="panel-heading">
        <h2 id="keyv-heading">Key-value</h2>
        <button
          type="button"
          onClick={() => void queryClient.invalidateQueries({ queryKey: keyvKeys.all(baseUrl) })}
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
        <BucketList query={buckets} current={bucket} onOpen={(name) => setParam('bucket', name)} />
        {chosen && (asked || !buckets.isPending) && (
          <KeysPanel
            token={chosen.token}
            bucket={bucket}
            prefix={prefix}
            onPrefix={(value) => setParam('prefix', value)}
          />
        )}
      </div>
    </section>
  )
}
