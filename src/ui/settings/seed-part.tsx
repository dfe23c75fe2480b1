import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useConfig } from '../shared/config'
import { Field } from '../shared/field'
import { messageOf } from '../shared/format'
import { seedQuery, useAccountMutation } from '../shared/queries'
import { resetPlayground } from '../shared/reset-account'

/**
 * The account's seed (decision 086): with one, every value the engine draws comes from a
 * generator keyed by the seed and the account's own signing key, and the clock stands still
 * until moved, so the same requests answer the same bytes. A seed is set, or taken away, by a
 * reset, asked first as the reset is.
 */
export function SeedPart({ onDone }: { onDone: (message: string) => void }) {
  const config = useConfig()
  const queryClient = useQueryClient()
  const current = useQuery(seedQuery(config.baseUrl))
  const [seed, setSeed] = useState('')
  // The seed a reset is being asked for (`null`: none), until confirmed.
  const [asked, setAsked] = useState<string | null | undefined>(undefined)
  // Once settled, everything under the account is read again: the seed, and the clock, which
  // stands still from now on or ticks again.
  const reset = useAccountMutation((next: string | null) =>
    resetPlayground(config, queryClient, next),
  )

  function ask(event: FormEvent) {
    event.preventDefault()
    reset.reset()
    setAsked(seed.trim() === '' ? null : seed)
  }

  const now = current.data?.seed
  return (
    <>
      <h3>Deterministic</h3>
      <p className="muted" data-testid="seed-now">
        {now === undefined
          ? '…'
          : now === null
            ? 'No seed: the account draws its secrets, nonces and ids at random, and its clock follows real time.'
            : `Seed “${now}”: every value the account draws comes from this seed and its own signing key, and its clock stands still until moved. The same requests answer the same bytes.`}
      </p>
      <form className="settings-actions" onSubmit={ask} noValidate>
        <Field label="Seed (empty for none)">
          {(id) => (
            <input
              id={id}
              value={seed}
              spellCheck={false}
              maxLength={128}
              onChange={(event) => setSeed(event.target.value)}
            />
          )}
        </Field>
        <div>
          <button type="submit" disabled={reset.isPending}>
            Reset with this seed…
          </button>
        </div>
      </form>
      {asked !== undefined && (
        <div role="group" aria-label="Confirm the reset with a seed" className="confirm">
          <p>
            {asked === null
              ? 'Reset the account without a seed?'
              : `Reset the account with seed “${asked}”?`}{' '}
            As any reset, this deletes every key and stored procedure and every secret made since
            the page started, and every authorization made so far stops working.
          </p>
          <button
            type="button"
            className="danger primary"
            disabled={reset.isPending}
            onClick={() =>
              reset.mutate(asked, {
                onSuccess: () => {
                  setAsked(undefined)
                  onDone(
                    asked === null
                      ? 'The account was reset without a seed.'
                      : `The account was reset with seed “${asked}”.`,
                  )
                },
              })
            }
          >
            Reset with the seed
          </button>{' '}
          <button type="button" onClick={() => setAsked(undefined)}>
            Cancel
          </button>
        </div>
      )}
      {reset.isError && <p role="alert">{messageOf(reset.error)}</p>}
    </>
  )
}
