// Cloudflare's workerd: a module worker, bundled with its imports (workerd resolves no packages),
// the three values as text bindings. The controller is made on the first request, when env is there.
import { controller } from './controller.mjs'

let handle

export default {
  fetch(request, env) {
    handle ??= controller(env)
    return handle(request)
  },
}
