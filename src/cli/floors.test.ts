/**
 * The house's floors (docs/guides/architecture.md): the command line is imported by nothing
 * outside it, no two rooms import each other round a loop (a room is a folder of `src/`, and,
 * inside the engine, a folder or a file of its own), and no two product files do.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SRC = fileURLToPath(new URL('..', import.meta.url))
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g

/** Every product source of `src/` (tests and test support left out), by its path from `src/`. */
function productFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : productFiles(path)
    const source = /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)
    return source ? [relative(SRC, path)] : []
  })
}

/** The file a relative import names, from `src/`; `undefined` when it is no source of `src/`. */
function target(from: string, specifier: string): string | undefined {
  const base = resolve(SRC, dirname(from), specifier)
  const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]
    .filter((path) => existsSync(path) && statSync(path).isFile())
    .map((path) => relative(SRC, path))[0]
  return found && !found.startsWith('..') ? found : undefined
}

const files = productFiles()
const imports = new Map(
  files.map((file) => {
    const source = readFileSync(join(SRC, file), 'utf8')
    const named = [...source.matchAll(IMPORT)].map((match) => target(file, match[1] ?? match[2]!))
    return [file, [...new Set(named.filter((path) => path !== undefined))]]
  }),
)

/** The loops of a graph: each strongly connected part of more than one node (Tarjan's). */
function loops(graph: Map<string, Set<string>>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (node: string) => {
    index.set(node, next)
    low.set(node, next++)
    stack.push(node)
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node)!, low.get(to)!))
      } else if (stack.includes(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!))
    }
    if (low.get(node) !== index.get(node)) return
    const part: string[] = []
    let member: string
    do {
      member = stack.pop()!
      part.push(member)
    } while (member !== node)
    if (part.length > 1) found.push(part.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

/** The graph of rooms that `roomOf` makes of the files it places (the others left out). */
function rooms(roomOf: (file: string) => string | undefined): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>()
  for (const [file, targets] of imports) {
    const from = roomOf(file)
    if (from === undefined) continue
    const edges = graph.get(from) ?? graph.set(from, new Set()).get(from)!
    for (const to of targets.map(roomOf)) if (to !== undefined && to !== from) edges.add(to)
  }
  return graph
}

describe('the floors of the house', () => {
  it('reads the product files and their imports', () => {
    expect(files.length).toBeGreaterThan(300)
    expect(imports.get('cli/bin.ts')).toContain('cli/conformance/commands.ts')
  })

  it('keeps the command line out of every import from outside it', () => {
    const upward = [...imports].flatMap(([file, targets]) =>
      file.startsWith('cli/')
        ? []
        : targets.filter((to) => to.startsWith('cli/')).map((to) => `${file} imports ${to}`),
    )
    expect(upward).toEqual([])
  })

  it('has no loop between the folders of src/', () => {
    expect(loops(rooms((file) => file.split('/')[0]))).toEqual([])
  })

  it('has no loop between the rooms of the engine', () => {
    const inEngine = (file: string) =>
      file.startsWith('engine/') ? file.split('/').slice(0, 2).join('/') : undefined
    expect(loops(rooms(inEngine))).toEqual([])
  })

  it('has no two product files that import each other round a loop', () => {
    expect(loops(rooms((file) => file))).toEqual([])
  })
})
