import {
  memo,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react'
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

/** Whether a node opens: a package, and `lib` even before any procedure is stored. */
const expandable = (node: TreeNode) => node.children.length > 0 || node.name === LIB

/** A node as the tree shows it now: its place, and its parent's name. */
interface Shown {
  node: TreeNode
  parent: string | undefined
}

/** The nodes shown, in order: every root, and the children of each open node. */
function shownNodes(roots: readonly TreeNode[], open: ReadonlySet<string>): Shown[] {
  const shown: Shown[] = []
  const walk = (nodes: readonly TreeNode[], parent: string | undefined) => {
    for (const node of nodes) {
      shown.push({ node, parent })
      if (open.has(node.name)) walk(node.children, node.name)
    }
  }
  walk(roots, undefined)
  return shown
}

/** Packages start closed, what is below them open: one click shows a package whole. */
function initiallyOpen(roots: readonly TreeNode[]): Set<string> {
  const open = new Set<string>()
  const walk = (nodes: readonly TreeNode[]) => {
    for (const node of nodes) {
      if (node.children.length > 0) {
        open.add(node.name)
        walk(node.children)
      }
    }
  }
  for (const root of roots) walk(root.children)
  return open
}

interface TreeProps {
  world: AbilityWorld
  selected: readonly string[]
  onToggle: (name: string, on: boolean) => void
}

/**
 * The engine's catalogue as a tree to pick abilities from: a package grants every endpoint
 * below it, by whole dotted segments. Each endpoint says its input and arguments. A tree as
 * the keyboard expects one (WAI-ARIA's tree view): one Tab stop; Up and Down move, Right
 * opens a package or steps into it, Left closes it or steps out to its parent, Home and End
 * go to the ends; Space or Enter grants or takes back the ability.
 */
export const AbilityTree = memo(function AbilityTree({ world, selected, onToggle }: TreeProps) {
  const roots = useMemo(() => buildTree(world), [world])
  const [open, setOpen] = useState(() => initiallyOpen(roots))
  const [active, setActive] = useState<string>(() => roots[0]?.name ?? LIB)
  const prefix = useId()
  const moved = useRef(false)
  const shown = shownNodes(roots, open)
  // The active item is one shown: closing a package over it makes the package active.
  const current = shown.some((item) => item.node.name === active) ? active : (roots[0]?.name ?? LIB)
  const idOf = (name: string) => `${prefix}-${name.replaceAll('.', '-')}`

  useEffect(() => {
    if (!moved.current) return
    moved.current = false
    document.getElementById(idOf(current))?.focus()
  })

  function move(name: string) {
    moved.current = true
    setActive(name)
  }

  function setOpenOf(name: string, wanted: boolean) {
    setOpen((was) => {
      const next = new Set(was)
      if (wanted) next.add(name)
      else next.delete(name)
      return next
    })
  }

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    // The item the key was pressed on (the one with the focus).
    const name = (event.target as Element).closest('[role="treeitem"]')?.getAttribute('data-name')
    const index = shown.findIndex((item) => item.node.name === (name ?? current))
    const here = shown[index]
    if (!here) return
    const { node, parent } = here
    const hasChildren = expandable(node)
    const handled = (() => {
      switch (event.key) {
        case 'ArrowDown':
          if (index < shown.length - 1) move(shown[index + 1]!.node.name)
          return true
        case 'ArrowUp':
          if (index > 0) move(shown[index - 1]!.node.name)
          return true
        case 'ArrowRight':
          if (hasChildren && !open.has(node.name)) setOpenOf(node.name, true)
          else if (node.children[0]) move(node.children[0].name)
          return true
        case 'ArrowLeft':
          if (hasChildren && open.has(node.name)) setOpenOf(node.name, false)
          else if (parent) move(parent)
          return true
        case 'Home':
          move(shown[0]!.node.name)
          return true
        case 'End':
          move(shown.at(-1)!.node.name)
          return true
        case ' ':
        case 'Enter':
          toggle(node.name)
          return true
        default:
          return false
      }
    })()
    if (handled) event.preventDefault()
  }

  function toggle(name: string) {
    const checked = selected.includes(name)
    const covered = !checked && selected.some((grant) => grant !== name && covers(grant, name))
    if (!covered) onToggle(name, !checked)
  }

  const items = (nodes: readonly TreeNode[], level: number) =>
    nodes.map((node, index) => (
      <TreeItem
        key={node.name}
        node={node}
        level={level}
        position={index + 1}
        siblings={nodes.length}
        world={world}
        selected={selected}
        id={idOf(node.name)}
        active={node.name === current}
        open={open.has(node.name)}
        onPick={() => {
          setActive(node.name)
          toggle(node.name)
        }}
        onOpen={(wanted) => {
          setActive(node.name)
          setOpenOf(node.name, wanted)
        }}
      >
        {open.has(node.name) && node.children.length > 0 && (
          <ul role="group">{items(node.children, level + 1)}</ul>
        )}
      </TreeItem>
    ))

  return (
    <ul
      className="ability-tree"
      role="tree"
      aria-label="Catalogue"
      aria-multiselectable="true"
      onKeyDown={onKeyDown}
    >
      {items(roots, 1)}
    </ul>
  )
})

function TreeItem({
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
