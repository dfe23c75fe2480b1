import { useMutation } from '@tanstack/react-query'
import { useConfig } from '../shared/config'
import { CopyButton } from '../shared/copy-button'
import { messageOf } from '../shared/format'
import type { PageExchange } from '../shared/page-store'
import { shareStep } from './step-link-replay'

/**
 * "Share this step" for the exchange log's rows: `share(row)` makes the row's link from the
 * log (decision 093), and `panel` shows it (its length, a way to copy and open it) or why it
 * could not be made.
 */
export function useShareStep(log: readonly PageExchange[]) {
  const config = useConfig()
  const made = useMutation({
    mutationFn: (row: PageExchange) => shareStep(config, log, row),
    networkMode: 'always',
  })
  const panel = made.isError ? (
    <p role="alert" data-testid="share-error">
      Not shared: {messageOf(made.error)}
    </p>
  ) : made.data ? (
    <div role="status" className="log-went-back" data-testid="shared-step">
      <p>
        A link to exchange {made.variables?.id} and the steps before it, with no secret or token in
        it ({made.data.length.toLocaleString('en-US')} characters
        {made.data.long ? ', more than the 2,000 a chat message takes' : ''}):
      </p>
      <input
        readOnly
        aria-label="The step's link"
        value={made.data.url}
        onFocus={(event) => event.target.select()}
        data-testid="shared-link"
      />{' '}
      <CopyButton text={made.data.url} label="Copy the link" /> <a href={made.data.url}>Open it</a>
    </div>
  ) : null
  return {
    share: (row: PageExchange) => made.mutate(row),
    busy: made.isPending,
    panel,
  }
}
