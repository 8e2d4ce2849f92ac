// Records every service-auth:* event the widgets dispatch: into window.__events for tests, and
// into the visible #event-log for people. Listening on document means only events that bubble
// are seen, which is what an integrator's own listener would see too.
;(function () {
  // The embed's event names (EVENT_NAMES in src/events.ts), which the page hands this script on its tag.
  var NAMES = document.currentScript.dataset.names.split(' ')
  var events = (window.__events = window.__events || [])
  // Content-Security-Policy and Trusted Types violations, so tests can show there are none.
  var violations = (window.__violations = window.__violations || [])
  document.addEventListener('securitypolicyviolation', function (event) {
    violations.push({ directive: event.effectiveDirective, blocked: event.blockedURI, sample: event.sample })
  })

  function describe(detail) {
    try {
      return JSON.stringify(detail) || ''
    } catch (error) {
      return String(detail)
    }
  }

  NAMES.forEach(function (name) {
    document.addEventListener('service-auth:' + name, function (event) {
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
