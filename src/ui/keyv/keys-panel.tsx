import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Field } from '../shared/field'
import { useConfig } from '../shared/config'
import { Name, visibleText } from '../shared/quoted'
import { ErrorReason } from '../shared/refusal'
import { AddKeyForm } from './add-key-form'
import { KeyRow, type RowMode } from './key-row'
import { pageQuery } from './queries'

/** Keys per page: small enough to read, so paging shows. */
export const PAGE_SIZE = 25

/**
 * One bucket's keys, a page at a time through `keyv.scan` and its `x-cursor`. The cursors of
 * the pages seen are kept, so the view can step back; a new token, bucket or prefix starts over.
 */
export function KeysPanel({
  token,
  bucket,
  prefix,
  onPrefix,
}: {
  token: string
  bucket: string
  prefix: string
  onPrefix: (prefix: string) => void
}) {
  const config = useConfig()
  const scope = JSON.stringify([token, bucket, prefix])
  const [paging, setPaging] = useState({ scope, cursors: [''] })
  const cursors = paging.scope === scope ? paging.cursors : ['']
  const cursor = cursors.at(-1) ?? ''
  const page = useQuery(pageQuery(config, token, { bucket, prefix, count: PAGE_SIZE, cursor }))
  const [open, setOpen] = useState<{ at: string; key: string; mode: RowMode } | null>(null)
  const at = `${scope}\n${cursor}`
  const opened = open?.at === at ? open : null

  const go = (next: string[]) => setPaging({ scope, cursors: next })
  const keys = page.data?.keys ?? []

  return (
    <section aria-labelledby="keyv-keys-heading" className="keyv-keys">
      <h3 id="keyv-keys-heading">
        Keys in{' '}
        <code className="bucket-title">
          <Name text={bucket} />
        </code>
      </h3>
      <Field label="Only keys starting with" className="keyv-prefix">
        {(id) => (
          <input
            id={id}
            type="search"
            value={prefix}
            placeholder="e.g. alice/"
            onChange={(event) => onPrefix(event.target.value)}
          />
        )}
      </Field>
      {page.isError && <ErrorReason error={page.error} />}
      {page.isPending && <p className="muted">Loading keys…</p>}
      {page.data && keys.length === 0 && (
        <p className="empty">
          {cursors.length > 1
            ? 'No more keys on this page: go back to the first page.'
            : prefix
              ? `No key in ${visibleText(bucket)} starts with “${visibleText(prefix)}”. Clear the filter, or add one below.`
              : `No keys in ${visibleText(bucket)} yet. Add one below.`}
        </p>
      )}
      {keys.length > 0 && (
        <div className="table-scroll">
          <table aria-label={`Keys in ${visibleText(bucket)}`} className="keyv-table">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col" className="keyv-actions-heading">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <KeyRow
                  key={key}
                  token={token}
                  bucket={bucket}
                  name={key}
                  mode={opened?.key === key ? opened.mode : null}
                  onMode={(mode) => setOpen(mode ? { at, key, mode } : null)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(cursors.length > 1 || page.data?.next) && (
        <nav aria-label="Pages of keys" className="keyv-pager">
          <span>
            Page {cursors.length} · {PAGE_SIZE} keys a page
          </span>
          <button type="button" disabled={cursors.length === 1} onClick={() => go([''])}>
            First page
          </button>
          <button
            type="button"
            disabled={cursors.length === 1}
            onClick={() => go(cursors.slice(0, -1))}
          >
            Previous page
          </button>
          <button
            type="button"
            disabled={!page.data?.next}
            onClick={() => page.data?.next && go([...cursors, page.data.next])}
          >
            Next page
          </button>
        </nav>
      )}
      <AddKeyForm token={token} bucket={bucket} />
    </section>
  )
}
