/** The example client's shape, for TypeScript tests that import it. */
export class ProcError extends Error {
  status: number
}
export interface Proc {
  call(name: string, input?: unknown, args?: Record<string, unknown>): Promise<unknown>
  send(
    name: string,
    input?: unknown,
    args?: Record<string, unknown>,
  ): Promise<{ value: unknown; headers: Headers }>
  scan(bucket: string, options?: { prefix?: string; count?: number }): Promise<string[]>
}
export function connect(token: string, options?: { baseUrl?: string; serviceName?: string }): Proc
