// The login page's QA panel: puts the service into a failure mode through its knobs (slow, 500,
// 429, expire the code shown), and locks, unlocks or deletes an identity through this site's
// back office (/__app/identities/..., which calls the service with signed requests). The widget
// beside it shows what a person would see.
;(() => {
  var panel = document.getElementById('qa-panel')
  if (!panel) return
  var serviceUrl = panel.getAttribute('data-service-url')
  var status = document.getElementById('qa-status')
  var identifier = document.getElementById('qa-identifier')
  var expireButton = document.getElementById('qa-expire')
  var shown = null

  function send(url, method, body) {
    var init = { method: method }
    if (body !== undefined) {
      init.headers = { 'Content-Type': 'application/json' }
      init.body = JSON.stringify(body)
    }
    return fetch(url, init).then((response) => {
      if (response.ok) return
      return response
        .json()
        .catch(() => null)
        .then((problem) => {
          throw new Error('Refused (' + response.status + '): ' + (problem?.detail || 'no reason given.'))
        })
    })
  }

  function on(id, action, done) {
    var button = document.getElementById(id)
    button.addEventListener('click', () => {
      // Unusable but focusable (aria-disabled, see code()): the press does nothing.
      if (button.getAttribute('aria-disabled') === 'true') return
      action()
        .then((result) => {
          status.textContent = typeof done === 'function' ? done(result) : done
        })
        .catch((error) => {
          status.textContent = error instanceof TypeError ? 'The server could not be reached.' : error.message
        })
    })
  }

  var knob = (path, body) => () => send(serviceUrl + '/__knobs/' + path, 'POST', body)
  var who = () => identifier.value.trim()
  // No name would be a request for /__app/identities/ itself, refused as a page that is not there.
  var identity = (method, body) => () =>
    who() ? send('/__app/identities/' + encodeURIComponent(who()), method, body) : Promise.reject(new Error('Name an identity first.'))

  // A held poll that waits 3 s more shows nothing, so Slow also retires the code on screen: the
  // person sees the widget fetch a new one, slowly, without a second click.
  on(
    'qa-slow',
    () => {
      var onScreen = shown
      return knob('delay', { ms: 3000, count: 5, match: 'any' })().then(() => {
        if (onScreen) return knob('challenges/' + encodeURIComponent(onScreen) + '/expire')().then(() => true)
      })
    },
    (renewed) => 'The next 5 requests to the service wait 3 s each' + (renewed ? ': watch the new code take 3 s to come.' : '.'),
  )
  on('qa-500', knob('fail', { status: 500, count: 2, match: 'any' }), 'The next 2 requests to the service get a 500.')
  on('qa-429', knob('fail', { status: 429, count: 1, match: 'any', retryAfter: '3' }), 'The next request to the service gets a 429 with Retry-After: 3.')
  on('qa-expire', () => knob('challenges/' + encodeURIComponent(shown) + '/expire')(), 'The code shown has expired.')
  on('qa-lock', identity('POST', { locked: true }), () => who() + ' is locked: the service refuses its sign-ins (423).')
  on('qa-unlock', identity('POST', { locked: false }), () => who() + ' is unlocked.')
  on('qa-delete', identity('DELETE'), () => who() + ' is deleted at the service.')

  function code(id) {
    shown = id
    // aria-disabled, not disabled: Enter on Expire now makes the code go, and a disabled button
    // would drop the keyboard focus to <body> until the next code shows.
    expireButton.setAttribute('aria-disabled', String(!shown))
  }

  document.addEventListener('service-auth:ready', (event) => code(event.detail?.challengeId))
  document.addEventListener('service-auth:expired', () => code(null))
  // A signed code is used up; after an error only a poll that failed leaves it on screen.
  document.addEventListener('service-auth:signed', () => code(null))
  document.addEventListener('service-auth:error', (event) => {
    if (!shown || !['network', 'response', 'service'].includes(event.detail?.reason)) code(null)
  })
})()
