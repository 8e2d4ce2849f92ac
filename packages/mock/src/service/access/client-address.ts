// Whom an unsigned challenge creation counts against: the client's address, which is the TCP
// peer's unless the service sits behind a proxy of its own. Then every request comes from the
// proxy, one budget for everybody, and the client's address is in a header the proxy sets
// (`clientAddressHeader`, e.g. X-Forwarded-For). Only the service's own configuration names
// that header: trusted by default, it would let any bot choose a fresh address per request.
import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'

/**
 * The client's address: the last entry of `header` when it is configured and holds an IP address
 * (the one the nearest proxy added; entries before it are whatever the client sent), else the peer's.
 */
export function clientAddress(req: IncomingMessage, header: string | undefined): string {
  const peer = req.socket.remoteAddress ?? ''
  if (header === undefined) return peer
  const value = req.headers[header.toLowerCase()]
  const last = (Array.isArray(value) ? value.join(',') : (value ?? '')).split(',').at(-1)!.trim()
  return isIP(last) ? last : peer
}

/**
 * The bucket an address's creations count in. An IPv6 client holds a whole /64 (one subnet is
 * what a home or a cloud instance gets), so a bot could take a fresh address per request: its
 * /64 is counted as one. IPv4-mapped IPv6 (::ffff:1.2.3.4) is the IPv4 address.
 */
export function rateLimitBucket(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return mapped[1]!
  if (isIP(address) !== 6) return address
  return expandIpv6(address).slice(0, 4).join(':') + '::/64'
}

/** The eight groups of an IPv6 address, without leading zeros; a zone (`%eth0`) is dropped. */
function expandIpv6(address: string): string[] {
  const [head = '', tail] = address.split('%')[0]!.toLowerCase().split('::')
  const groups = (part: string) => (part ? part.split(':') : [])
  // An embedded IPv4 tail (::1.2.3.4) is two groups; only the first four groups matter here.
  const before = groups(head)
  const after = tail === undefined ? [] : groups(tail)
  const missing = 8 - before.length - after.length
  return [...before, ...Array(Math.max(0, missing)).fill('0'), ...after].map((group) => group.replace(/^0+(?=.)/, ''))
}
