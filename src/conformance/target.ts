/** A request as any target can carry it, a browser page included. */
export interface WireRequest {
  url: string
  method: string
  headers: Record<string, string>
  /** Base64 of the body's bytes, or absent for none. */
  body?: string
}

export interface WireResponse {
  status: number
  headers: Record<string, string>
  /** Base64 of the body's bytes. */
  body: string
}

/** Where cases run: anything that answers requests at `baseUrl`. */
export interface Target {
  name: string
  baseUrl: string
  serviceName: string
  send(request: WireRequest): Promise<WireResponse>
  /**
   * The account control plane (`/_account/...`), when this target lets us manage the account
   * and the clock; absent for a deployment we only hold a secret for.
   */
  control?: (path: string, body?: unknown) => Promise<unknown>
  /** The secret to use when there is no control plane. */
  secret?: string
}
