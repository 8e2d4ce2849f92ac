// The ports a browser will not connect to: the Fetch standard's "bad ports"
// (https://fetch.spec.whatwg.org/#bad-port), which Node's fetch (undici) refuses too, before any
// connection. Kept here once: the command warns when it listens on one, and the check of a
// controller says why such an app cannot be reached. A test holds the list to Node's fetch.

/** The Fetch standard's bad ports: the list Node 20's fetch refuses. */
export const BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137,
  139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
])

/** Whether browsers (and Node's fetch) refuse to connect to `port`. */
export const isBadPort = (port: number | string): boolean => BAD_PORTS.has(Number(port))

/** Why such a port is no use, in the words every message about one starts with. */
export const badPortReason = (port: number | string): string =>
  `port ${port} is one browsers and fetch refuse to connect to (a "bad port" of the Fetch standard)`
