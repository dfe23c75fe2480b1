import type { EndpointInfo } from '../shared/catalogue'
import { LIB, type AbilityWorld } from '../shared/abilities'

/** A package or an endpoint of the catalogue, or a stored procedure below `lib`. */
export interface TreeNode {
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
export const expandable = (node: TreeNode) => node.children.length > 0 || node.name === LIB

/** A node as the tree shows it now: its place, and its parent's name. */
export interface Shown {
  node: TreeNode
  parent: string | undefined
}

/** The nodes shown, in order: every root, and the children of each open node. */
export function shownNodes(roots: readonly TreeNode[], open: ReadonlySet<string>): Shown[] {
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
export function initiallyOpen(roots: readonly TreeNode[]): Set<string> {
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
