/**
 * Delta debugging (Zeller and Hildebrandt's ddmin): from a list of `items` that `fails`, a
 * sublist that still fails and is 1-minimal (removing any one item makes `fails` false), within
 * `budget` calls of `fails`; the empty list must pass (the caller has checked it). `minimal` says whether the last pass proved 1-minimality, which a
 * budget spent too early leaves unproven.
 */
export async function ddmin<T>(
  items: readonly T[],
  fails: (subset: readonly T[]) => Promise<boolean>,
  budget = Infinity,
): Promise<{ items: T[]; tries: number; minimal: boolean }> {
  let current = [...items]
  let tries = 0
  // A sublist is asked about once: the same faults rerun the same way.
  const asked = new Map<string, boolean>()
  const keyOf = (subset: T[]) => subset.map((item) => items.indexOf(item)).join(',')
  const test = async (subset: T[]) => {
    const key = keyOf(subset)
    const known = asked.get(key)
    if (known !== undefined) return known
    tries++
    const answer = await fails(subset)
    asked.set(key, answer)
    return answer
  }
  let n = 2
  while (current.length >= 2) {
    const chunks = split(current, Math.min(n, current.length))
    let reduced = false
    // Reduce to a subset, then to a complement.
    for (const chunk of chunks) {
      if (tries >= budget) return { items: current, tries, minimal: false }
      if (chunk.length < current.length && (await test(chunk))) {
        current = chunk
        n = 2
        reduced = true
        break
      }
    }
    if (!reduced && chunks.length > 2) {
      for (let i = 0; i < chunks.length; i++) {
        if (tries >= budget) return { items: current, tries, minimal: false }
        const complement = chunks.filter((_, j) => j !== i).flat()
        if (await test(complement)) {
          current = complement
          n = Math.max(n - 1, 2)
          reduced = true
          break
        }
      }
    }
    if (!reduced) {
      if (n >= current.length) break
      n = Math.min(current.length, n * 2)
    }
  }
  return { items: current, tries, minimal: true }
}

function split<T>(items: T[], n: number): T[][] {
  const chunks: T[][] = []
  let start = 0
  for (let i = 0; i < n; i++) {
    const end = start + Math.floor((items.length - start) / (n - i))
    chunks.push(items.slice(start, end))
    start = end
  }
  return chunks
}
