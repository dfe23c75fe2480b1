import { memo, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { covers, LIB, type AbilityWorld } from '../shared/abilities'
import { buildTree, expandable, initiallyOpen, shownNodes, type TreeNode } from './ability-nodes'
import { TreeItem } from './tree-item'

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
