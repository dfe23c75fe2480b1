import type { Json } from '../store'

/**
 * Roughly how many bytes `root` takes as JSON, walking no further once `limit` is passed
 * (the answer is then just "more than `limit`"). Objects already measured are remembered, so
 * a value passed along from call to call, or repeated by reference, is walked once.
 */
export function measure(root: Json, limit: number, memo: WeakMap<object, number>): number {
  if (root === null || typeof root !== 'object') return primitiveSize(root)
  interface Pending {
    value: object
    entries: Array<[string | null, Json]>
    index: number
    total: number
  }
  const open = (value: object): Pending => ({
    value,
    entries: Array.isArray(value)
      ? value.map((item): [null, Json] => [null, item as Json])
      : Object.entries(value as Record<string, Json>),
    index: 0,
    total: 2,
  })
  const stack: Pending[] = [open(root)]
  let grand = 0
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!
    if (top.index === top.entries.length) {
      stack.pop()
      memo.set(top.value, top.total)
      if (stack.length === 0) return top.total
      stack[stack.length - 1]!.total += top.total
      continue
    }
    const [key, child] = top.entries[top.index++]!
    const keySize = key === null ? 1 : key.length + 4
    top.total += keySize
    grand += keySize
    if (child !== null && typeof child === 'object') {
      const known = memo.get(child)
      if (known !== undefined) {
        top.total += known
        grand += known
      } else {
        stack.push(open(child))
      }
    } else {
      const size = primitiveSize(child)
      top.total += size
      grand += size
    }
    if (grand > limit) return Infinity
  }
  return grand
}

function primitiveSize(value: Json): number {
  if (typeof value === 'string') return value.length + 2
  if (typeof value === 'number') return 8
  if (typeof value === 'boolean') return 5
  return 4
}
