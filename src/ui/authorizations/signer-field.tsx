import { Field } from '../shared/field'
import { formatTime } from '../shared/format'
import { routeHref } from '../shared/router'
import type { TokenChoice } from '../shared/tokens'
import { holdsAuthCreate } from '../shared/abilities'

/** The tokens that may sign `auth.create`: every secret, and authorizations holding `auth.create`. */
export function signerChoices(choices: readonly TokenChoice[]): TokenChoice[] {
  return choices.filter(
    (choice) =>
      choice.kind === 'secret' || holdsAuthCreate(choice.report?.details?.abilities ?? []),
  )
}

/** The chosen signer, or the first usable secret when none is chosen (or it is gone). */
export function pickSigner(
  signers: readonly TokenChoice[],
  chosen: string | undefined,
): TokenChoice | undefined {
  return (
    signers.find((choice) => choice.id === chosen) ??
    signers.find((choice) => choice.kind === 'secret' && choice.state === 'usable') ??
    signers[0]
  )
}

export function SignerField({
  signers,
  signer,
  onChange,
}: {
  signers: readonly TokenChoice[]
  signer: TokenChoice | undefined
  onChange: (id: string) => void
}) {
  if (signers.length === 0) {
    return (
      <p className="empty">
        No secret to sign with yet. <a href={routeHref('secrets')}>Create a secret</a> first.
      </p>
    )
  }
  const expiresAt = signer?.report?.details?.expiresAt ?? null
  return (
    <div className="signer">
      <Field label="Signed with (the bearer token)">
        {(id) => (
          <select id={id} value={signer?.id ?? ''} onChange={(e) => onChange(e.target.value)}>
            {signers.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {signer?.kind === 'authorization' && (
        <div className="loud-warning" role="note" data-testid="signer-warning">
          <strong>This authorization holds auth.create: it can mint ANY abilities.</strong> The real
          service does not narrow: what it mints is not limited to its own abilities, and may reach
          any part of the account. The child only dies with the same secret
          {expiresAt !== null && ` and expires no later than its signer, ${formatTime(expiresAt)}`}.
        </div>
      )}
      {signer && signer.state !== 'usable' && signer.state !== 'unknown' && (
        <p className="finding finding-engine">
          This token is {signer.stateText}: the engine will answer 401.
        </p>
      )}
    </div>
  )
}
