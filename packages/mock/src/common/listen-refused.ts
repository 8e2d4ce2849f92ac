// Node's own words for a port it cannot listen on (`listen EADDRINUSE: address already in use
// 127.0.0.1:8081`) name neither the option nor what to do; a second mock on the same port is the
// usual cause. The command and the test kit say the same, each naming its own way to another port.

/** How a caller of the mock chooses its port: the option, and how to have a free one. */
export interface PortChoice {
  /** `--port`, or `startMockService's port option`. */
  option: string
  /** `0 picks a free one`, or `leave it out for a free one`. */
  free: string
}

/** What to say instead of Node's error from listening on `port`; undefined for a failure of another kind, to pass on as it is. */
export function listenRefusedReason(port: number, error: unknown, choice: PortChoice): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const another = `${choice.option} (${choice.free})`
  if (code === 'EADDRINUSE')
    return `Port ${port} on 127.0.0.1 is in use (another service-auth-mock?): stop what listens there, or choose another with ${another}.`
  if (code === 'EACCES') return `Port ${port} on 127.0.0.1 is not this user's to listen on: choose one above 1023 with ${another}.`
  return undefined
}
