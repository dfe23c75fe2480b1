/** Helpers over an array of strings kept in ascending `<` order. */

/** The index of the first key that is not less than `key`. */
export function lowerBound(keys: readonly string[], key: string): number {
  let low = 0
  let high = keys.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if ((keys[mid] as string) < key) low = mid + 1
    else high = mid
  }
  return low
}

/** The index of the first key that is greater than `key`. */
export function upperBound(keys: readonly string[], key: string): number {
  let low = 0
  let high = keys.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if ((keys[mid] as string) <= key) low = mid + 1
    else high = mid
  }
  return low
}

/** Inserts `key` in order unless it is already there. */
export function insertKey(keys: string[], key: string): void {
  const at = lowerBound(keys, key)
  if (keys[at] !== key) keys.splice(at, 0, key)
}

/** Removes `key` if it is there. */
export function removeKey(keys: string[], key: string): void {
  const at = lowerBound(keys, key)
  if (keys[at] === key) keys.splice(at, 1)
}
