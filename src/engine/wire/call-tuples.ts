/** A tuple of a call's body: `[">>", input]` or `["$$", name, value]`. */
export type CallTuple<V> = ['>>', V] | ['$$', string, V]

/**
 * An input and named arguments as a tuple body carries them (`application/vnd.<service>+json`
 * or `+msgpack`): `[">>", input]` when there is an input, then `["$$", name, value]` for each
 * argument in order. The values go in as they are: a bare value is data, `["{}", …]` a
 * composition.
 */
export function callTuples<V>(
  input: V | undefined,
  args: Readonly<Record<string, V>> | ReadonlyArray<readonly [string, V]>,
): Array<CallTuple<V>> {
  const pairs = Array.isArray(args) ? args : Object.entries(args as Record<string, V>)
  return [
    ...(input === undefined ? [] : [['>>', input] as CallTuple<V>]),
    ...pairs.map(([name, value]): CallTuple<V> => ['$$', name, value]),
  ]
}
