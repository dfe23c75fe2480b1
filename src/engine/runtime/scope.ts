import type { Input } from './endpoint'

export type Lazy = () => Promise<Input>

/** Arguments in scope for `@@`: evaluated on first use, looked up through enclosing scopes. */
export class Scope {
  /** What each argument came to, once used: made on the first use (most calls use none). */
  private cache: Map<string, Promise<Input>> | undefined

  constructor(
    private readonly entries: Map<string, Lazy>,
    private readonly parent?: Scope,
  ) {}

  resolve(name: string): Promise<Input> | undefined {
    const lazy = this.entries.get(name)
    if (!lazy) return this.parent?.resolve(name)
    const cache = (this.cache ??= new Map())
    let value = cache.get(name)
    if (!value) {
      value = lazy()
      cache.set(name, value)
    }
    return value
  }
}

/** The scope with nothing in it: where stored procedures start. */
export const EMPTY = new Scope(new Map())
