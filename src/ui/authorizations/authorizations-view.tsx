import './authorizations.css'
import './insight.css'
import { Composer } from './composer'
import { CreatedList } from './created-list'
import { TokenDiff } from './token-diff'
import { TokenInspector } from './token-inspector'
import { WhoReaches } from './who-reaches'

/**
 * Authorizations: compose `auth.create` from the engine's catalogue and see the exact request,
 * follow every authorization made in this page as the virtual clock moves and secrets roll,
 * inspect any token and see what it can do, compare two, and ask who reaches an endpoint, a key
 * or a procedure.
 */
export default function AuthorizationsView() {
  return (
    <div className="authorizations-view">
      <Composer />
      <CreatedList />
      <TokenInspector />
      <TokenDiff />
      <WhoReaches />
    </div>
  )
}
