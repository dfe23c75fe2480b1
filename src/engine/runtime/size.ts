import { Decimal, isExtension, Timestamp, type Value } from '../lang/value'

/**
 * Roughly how many bytes `root` takes as JSON, walking no further once `limit` is passed
 * (the answer is then just "more than `limit`"). Objects already measured are remembered, so
 * a value passed along from call to call, or repeated by reference, is walked once.
 */
export function measure(root: Value, limit: number, memo: WeakMap<object, number>): number {
  if (isLeaf(root)) return leafSize(root)
  interface Pending {
    value: object
    /** An array's items, or an object's members' names (their values are read by name). */
    items: readonly Value[] | readonly string[]
    array: boolean
    index: number
    total: number
  }
  const open = (value: object): Pending => {
    const array = Array.isArray(value)
    return { value, items: array ? value : Object.keys(value), array, index: 0, total: 2 }
  }
  const stack: Pending[] = [open(root)]
  let grand = 0
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!
    if (top.index === top.items.length) {
      stack.pop()
      memo.set(top.value, top.total)
      if (stack.length === 0) return top.total
      stack[stack.length - 1]!.total += top.total
      continue
    }
    const item = top.items[top.index++]!
    const key = top.array ? null : (item as string)
    const child = top.array ? (item as Value) : (top.value as Record<string, Value>)[key!]!
    const keySize = key === null ? 1 : key.length + 4
    top.total += keySize
    grand += keySize
    if (!isLeaf(child)) {
      const known = memo.get(child)
      if (known !== undefined) {
        top.total += known
        grand += known
      } else {
        stack.push(open(child))
      }
    } else {
      const size = leafSize(child)
      top.total += size
      grand += size
    }
    if (grand > limit) return Infinity
  }
  return grand
}

/** A value with no members: a primitive, a decimal or a timestamp. */
type Leaf = Exclude<Value, Value[] | { [key: string]: Value }>

const isLeaf = (value: Value): value is Leaf =>
  value === null || typeof value !== 'object' || isExtension(value)

/** A timestamp is counted as its ISO 8601 string, at its longest in the usual years. */
const TIMESTAMP_SIZE = '"2023-11-14T22:13:20.123456789Z"'.length

function leafSize(value: Leaf): number {
  if (value instanceof Decimal) return value.text.length
  if (value instanceof Timestamp) return TIMESTAMP_SIZE
  if (typeof value === 'string') return value.length + 2
  if (typeof value === 'number') return 8
  if (typeof value === 'boolean') return 5
  return 4
}
