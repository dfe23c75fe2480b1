import { memo, useId, useState } from 'react'
import type { EndpointInfo, ParamSpec } from '../shared/catalogue'
import { Quoted } from '../shared/quoted'
import { covers, insecureReach, LIB, type AbilityWorld } from '../shared/abilities'

/** A package or an endpoint of the catalogue, or a stored procedure below `lib`. */
interface TreeNode {
  name: string
  endpoint?: EndpointInfo
  /** Stored procedures are not in the catalogue; `lib.<name>` reaches exactly one. */
  procedure?: boolean
  children: TreeNode[]
}

/** The catalogue as a tree of dotted names, with `lib` and its procedures last. */
export function buildTree(world: AbilityWorld): TreeNode[] {
  const roots: TreeNode[] = []
  const find = (list: TreeNode[], name: string) => {
    let node = list.find((item) => item.name === name)
    if (!node) list.push((node = { name, children: [] }))
    return node
  }
  for (const endpoint of world.endpoints) {
    const parts = endpoint.name.split('.')
    let list = roots
    let node: TreeNode | undefined
    for (let i = 1; i <= parts.length; i++) {
      node = find(list, parts.slice(0, i).join('.'))
      list = node.children
    }
    node!.endpoint = endpoint
  }
  roots.push({
    name: LIB,
    children: world.procedures.map((name) => ({
      name: `${LIB}.${name}`,
      procedure: true,
      children: [],
    })),
  })
  return roots
}

interface TreeProps {
  world: AbilityWorld
  selected: readonly string[]
  onToggle: (name: string, on: boolean) => void
}

/**
 * The engine's catalogue as a tree to pick abilities from: a package grants every endpoint
 * below it, by whole dotted segments. Each endpoint shows its input and arguments.
 */
export const AbilityTree = memo(function AbilityTree({ world, selected, onToggle }: TreeProps) {
  return (
    <ul className="ability-tree" aria-label="Catalogue">
      {buildTree(world).map((node) => (
        <TreeItem
          key={node.name}
          node={node}
          world={world}
          selected={selected}
          onToggle={onToggle}
          depth={0}
        />
      ))}
    </ul>
  )
})

function TreeItem({
  node,
  world,
  selected,
  onToggle,
  depth,
}: TreeProps & { node: TreeNode; depth: number }) {
  const id = useId()
  const [open, setOpen] = useState(depth > 0)
  const checked = selected.includes(node.name)
  const coveredBy = checked
    ? undefined
    : selected.find((grant) => grant !== node.name && covers(grant, node.name))
  const insecure = insecureReach(node.name, world).length > 0
  const hasChildren = node.children.length > 0 || node.name === LIB
  const describedBy = node.endpoint || node.name === LIB ? `${id}-about` : undefined
  return (
    <li>
      <div className="tree-row">
        {hasChildren ? (
          <button
            type="button"
            className="tree-toggle"
            aria-expanded={open}
            aria-label={`${open ? 'Collapse' : 'Expand'} ${node.name}`}
            onClick={() => setOpen(!open)}
          >
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span className="tree-toggle" aria-hidden="true" />
        )}
        <input
          id={id}
          type="checkbox"
          checked={checked || coveredBy !== undefined}
          disabled={coveredBy !== undefined}
          aria-describedby={describedBy}
          onChange={(event) => onToggle(node.name, event.target.checked)}
        />
        <label htmlFor={id}>
          <code>{node.name}</code>
        </label>
        {insecure && <span className="badge badge-insecure">insecure</span>}
        {!node.endpoint && !node.procedure && <span className="badge">package</span>}
        {coveredBy && (
          <span className="muted tree-note">
            covered by <code>{coveredBy}</code>
          </span>
        )}
      </div>
      {node.endpoint && <EndpointAbout id={`${id}-about`} endpoint={node.endpoint} />}
      {node.name === LIB && (
        <p id={`${id}-about`} className="tree-about muted">
          Stored procedures: <code>lib</code> reaches every one, <code>lib.&lt;name&gt;</code>{' '}
          exactly one.{world.procedures.length === 0 && ' None is stored yet.'}
        </p>
      )}
      {open && node.children.length > 0 && (
        <ul>
          {node.children.map((child) => (
            <TreeItem
              key={child.name}
              node={child}
              world={world}
              selected={selected}
              onToggle={onToggle}
              depth={depth + 1}
            />
          ))}
        </ul>
      )}
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
