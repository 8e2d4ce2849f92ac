// A GET that names the Host it likes (fetch sets Host from the URL), as a page reached through a
// rebound DNS name sends it: what the servers' Host checks are tested with.
import { request } from 'node:http'

/** The status of a GET of `url` whose Host header is `host`. */
export const withHost = (url: string, host: string) =>
  new Promise<number>((resolve, reject) => {
    const req = request(url, { headers: { Host: host } }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.once('error', reject)
    req.end()
  })
