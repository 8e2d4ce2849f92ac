// Records every service-auth:* event the widgets dispatch: into window.__events for tests, and
// into the visible #event-log for people. Listening on document means only events that bubble
// are seen, which is what an integrator's own listener would see too.
;(() => {
  // The embed's event names (EVENT_NAMES in src/events.ts), which the page hands this script on its tag.
  var NAMES = document.currentScript.dataset.names.split(' ')
  var events = (window.__events = window.__events || [])
  // Content-Security-Policy and Trusted Types violations, so tests can show there are none.
  var violations = (window.__violations = window.__violations || [])
  document.addEventListener('securitypolicyviolation', (event) => {
    violations.push({ directive: event.effectiveDirective, blocked: event.blockedURI, sample: event.sample })
  })

  // Uncaught errors, unhandled rejections and console errors of the page's scripts, so tests can
  // show there are none where the browser's driver reports none (classic WebDriver has no log).
  // Kept in sessionStorage too, so they outlast a navigation away (a sign-in, say).
  var problems = (window.__problems = window.__problems || [])
  var problem = (kind, text) => {
    problems.push(kind + ': ' + text)
    try {
      const kept = JSON.parse(sessionStorage.getItem('service-auth-demo:problems') || '[]')
      sessionStorage.setItem('service-auth-demo:problems', JSON.stringify(kept.concat(kind + ': ' + text)))
    } catch {
      // Storage refused (a sandboxed frame, a full quota): the page's own list still has it.
    }
  }
  addEventListener('error', (event) => {
    problem('uncaught', event.message)
  })
  addEventListener('unhandledrejection', (event) => {
    problem('unhandled rejection', String(event.reason))
  })
  var consoleError = console.error
  console.error = (...args) => {
    problem('console.error', args.map(String).join(' '))
    return consoleError.apply(console, args)
  }

  function describe(detail) {
    try {
      return JSON.stringify(detail) || ''
    } catch {
      return String(detail)
    }
  }

  NAMES.forEach((name) => {
    document.addEventListener('service-auth:' + name, (event) => {
      events.push({ type: event.type, detail: event.detail })
      var log = document.getElementById('event-log')
      if (!log) return
      var item = document.createElement('li')
      item.dataset.event = event.type
      item.textContent = event.type + ' ' + describe(event.detail)
      log.appendChild(item)
    })
  })
})()
