import type { ReactNode } from 'react'
import type { EndpointInfo, ParamSpec } from '../shared/catalogue'
import { Quoted } from '../shared/quoted'
import { covers, insecureReach, LIB, type AbilityWorld } from '../shared/abilities'
import { expandable, type TreeNode } from './ability-nodes'

/** One node of the ability tree: its checkbox, its name, what it is, and its children when open. */
export function TreeItem({
  node,
  level,
  position,
  siblings,
  world,
  selected,
  id,
  active,
  open,
  onPick,
  onOpen,
  children,
}: {
  node: TreeNode
  level: number
  position: number
  siblings: number
  world: AbilityWorld
  selected: readonly string[]
  id: string
  active: boolean
  open: boolean
  onPick: () => void
  onOpen: (open: boolean) => void
  children: ReactNode
}) {
  const checked = selected.includes(node.name)
  const coveredBy = checked
    ? undefined
    : selected.find((grant) => grant !== node.name && covers(grant, node.name))
  const insecure = insecureReach(node.name, world).length > 0
  const hasChildren = expandable(node)
  const about = node.endpoint || node.name === LIB ? `${id}-about` : undefined
  const note = coveredBy ? `${id}-note` : undefined
  return (
    <li
      id={id}
      role="treeitem"
      aria-label={node.name}
      aria-level={level}
      aria-posinset={position}
      aria-setsize={siblings}
      aria-checked={checked || coveredBy !== undefined}
      aria-disabled={coveredBy !== undefined ? true : undefined}
      aria-expanded={hasChildren ? open : undefined}
      aria-describedby={[note, about].filter(Boolean).join(' ') || undefined}
      tabIndex={active ? 0 : -1}
      data-testid="tree-item"
      data-name={node.name}
    >
      <div className="tree-row" onClick={onPick}>
        {hasChildren ? (
          <span
            className="tree-toggle"
            aria-hidden="true"
            onClick={(event) => {
              event.stopPropagation()
              onOpen(!open)
            }}
          >
            {open ? '▾' : '▸'}
          </span>
        ) : (
          <span className="tree-toggle" aria-hidden="true" />
        )}
        <span
          className={`tree-check${checked || coveredBy ? ' is-checked' : ''}${coveredBy ? ' is-covered' : ''}`}
          aria-hidden="true"
        />
        <code className="tree-name">{node.name}</code>
        {insecure && <span className="badge badge-insecure">insecure</span>}
        {!node.endpoint && !node.procedure && <span className="badge">package</span>}
        {coveredBy && (
          <span id={note} className="muted tree-note">
            covered by <code>{coveredBy}</code>
          </span>
        )}
      </div>
      {node.endpoint && <EndpointAbout id={about!} endpoint={node.endpoint} />}
      {node.name === LIB && (
        <p id={about} className="tree-about muted">
          Stored procedures: <code>lib</code> reaches every one, <code>lib.&lt;name&gt;</code>{' '}
          exactly one.{world.procedures.length === 0 && ' None is stored yet.'}
        </p>
      )}
      {children}
    </li>
  )
}

function EndpointAbout({ id, endpoint }: { id: string; endpoint: EndpointInfo }) {
  const params: Array<[string, ParamSpec]> = [
    ...(endpoint.input ? [['input', endpoint.input] as [string, ParamSpec]] : []),
    ...Object.entries(endpoint.args),
  ]
  return (
    <div id={id} className="tree-about">
      <span className="muted">
        <Quoted text={endpoint.summary} />
      </span>
      {params.length > 0 && (
        <ul className="tree-params">
          {params.map(([name, spec]) => (
            <li key={name}>
              <code>{name}</code>: {spec.type}
              {spec.required ? ', required' : ''}
              {spec.default !== undefined ? `, default ${JSON.stringify(spec.default)}` : ''}
              {spec.doc ? <span className="muted"> — {spec.doc}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
