// The login page's data: the service's address and the API key (public: the page shows them to
// the browser anyway), from the server's environment at request time.
import { serviceAuth } from '$lib/server/service-auth'
import type { PageServerLoad } from './$types'

export const load: PageServerLoad = () => {
  const { serviceUrl, key } = serviceAuth()
  return { serviceUrl, key }
}
