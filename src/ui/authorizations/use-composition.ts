import { useEffect, useState, type Dispatch, type SetStateAction } from 'react'
import { replaceParams, useRoute } from '../shared/router'
import { compositionFromParams, compositionToParams, type Composition } from './compose'

/**
 * The composer's form and its signer: the one value the view keeps in the URL
 * (`#/authorizations?ability=type&ttl=60&signer=secret:sec_1`), read when the view opens and
 * written as it changes, so the nav and a shared link bring it back. A secret's id may travel
 * in the URL; an authorization, a token itself, may not.
 */
export function useComposition(): {
  composition: Composition
  setComposition: Dispatch<SetStateAction<Composition>>
  signerId: string | undefined
  setSignerId: (id: string) => void
} {
  const { params } = useRoute()
  const [composition, setComposition] = useState<Composition>(() => compositionFromParams(params))
  const [signerId, setSignerId] = useState(() => params.get('signer') ?? undefined)
  useEffect(() => {
    const next = compositionToParams(composition)
    if (signerId?.startsWith('secret:')) next.set('signer', signerId)
    replaceParams('authorizations', next)
  }, [composition, signerId])
  return { composition, setComposition, signerId, setSignerId }
}
