import { describe, expect, it } from 'vitest'

/**
 * The playground's layout: `shared` sits below the views and the app (it imports none of
 * them), and no module of the playground reaches itself again through the modules it loads,
 * statically or with `import()`.
 */
const sources = import.meta.glob<string>(['./**/*.{ts,tsx}', '!./**/*.test.{ts,tsx}'], {
  query: '?raw',
  import: 'default',
  eager: true,
})

/** `./shared/api.ts` for `./shared/router.ts` importing `./api`, when it is a playground file. */
function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined
  const parts = from.split('/').slice(0, -1)
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop()
    else if (part !== '.') parts.push(part)
  }
  const path = parts.join('/')
  return [path, `${path}.ts`, `${path}.tsx`, `${path}/index.ts`].find((file) => file in sources)
}

interface Edge {
  to: string
  /** `import type …`: gone once compiled. */
  typeOnly: boolean
}

/** What a module imports: `import … from`, `export … from` and `import()`. */
function importsOf(path: string): Edge[] {
  // Comments may name modules too (`import('./x')` in a doc comment): they do not count.
  const source = sources[path]!.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
  const found: Edge[] = []
  const statics = /^(?:import|export)\s+(type\s+)?[^'"]*?from\s+'([^']+)'/gm
  for (const match of source.matchAll(statics)) {
    const to = resolve(path, match[2]!)
    if (to) found.push({ to, typeOnly: match[1] !== undefined })
  }
  for (const match of source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) {
    const to = resolve(path, match[1]!)
    if (to) found.push({ to, typeOnly: false })
  }
  return found
}

/** Every cycle's modules (strongly connected components of more than one module, or a self-loop). */
function cycles(edges: Map<string, string[]>): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  function visit(node: string) {
    index.set(node, counter)
    low.set(node, counter++)
    stack.push(node)
    onStack.add(node)
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!))
      }
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || (edges.get(node) ?? []).includes(node)) found.push(component.sort())
  }
  for (const node of edges.keys()) if (!index.has(node)) visit(node)
  return found
}

describe('the playground layout', () => {
  const modules = Object.keys(sources)

  it('reads the playground', () => {
    expect(modules).toContain('./shared/router.ts')
    expect(modules).toContain('./app.tsx')
  })

  it('keeps shared below the views and the app: it imports nothing outside shared', () => {
    const upward = modules
      .filter((path) => path.startsWith('./shared/'))
      .flatMap((path) =>
        importsOf(path)
          .filter((edge) => !edge.to.startsWith('./shared/'))
          .map((edge) => `${path} imports ${edge.to}`),
      )
    expect(upward).toEqual([])
  })

  it('has no import cycle', () => {
    const edges = new Map(
      modules.map((path) => [
        path,
        importsOf(path)
          .filter((edge) => !edge.typeOnly)
          .map((edge) => edge.to),
      ]),
    )
    expect(cycles(edges)).toEqual([])
  })
})
