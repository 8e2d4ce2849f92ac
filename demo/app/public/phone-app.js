// The /phone page: the service's mobile app, played in a browser through the service's knobs.
// A code is what a camera would read off a screen: serviceauth:enroll:<id> sets the phone up for
// an identity, serviceauth:challenge:<id> (or the extended code's .../app/challenge/<id>) is a
// sign-in to sign. The device id is kept in localStorage: the phone's storage, not the embed's.
;(() => {
  var root = document.querySelector('main[data-service-url]')
  if (!root) return
  var serviceUrl = root.getAttribute('data-service-url')
  var STORAGE_KEY = 'demo-phone'
  var byId = document.getElementById.bind(document)
  var scanned = byId('scanned')
  var status = byId('phone-status')

  function show(text) {
    status.textContent = text
  }

  function device() {
    try {
      return JSON.parse(localStorage.getItem(STORAGE_KEY) || 'null')
    } catch {
      return null
    }
  }

  function remember(value) {
    if (value) localStorage.setItem(STORAGE_KEY, JSON.stringify(value))
    else localStorage.removeItem(STORAGE_KEY)
    showDevice()
  }

  function showDevice() {
    var current = device()
    byId('device').textContent = current
      ? 'Set up for ' + current.identifier + ' (device ' + current.deviceId + ').'
      : 'Not set up yet: scan an enrollment code.'
    byId('forget-phone').hidden = !current
  }

  function readCode(text) {
    text = text.trim()
    var match = /^serviceauth:enroll:(.+)$/.exec(text)
    if (match) return { kind: 'enroll', id: match[1] }
    match = /^serviceauth:challenge:(.+)$/.exec(text) || /\/app\/challenge\/([^/?#]+)$/.exec(text)
    if (match) return { kind: 'challenge', id: decodeURIComponent(match[1]) }
    return null
  }

  function knob(path, body) {
    var init = body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }
    return fetch(serviceUrl + '/__knobs/' + path, init).then((response) =>
      response
        .json()
        .catch(() => null)
        .then((json) => {
          if (response.ok) return json
          var detail = response.status === 404 && !json ? 'the service knobs are off (SERVICE_KNOBS=1).' : json?.detail || 'no reason given.'
          throw new Error('The service refused (' + response.status + '): ' + detail)
        }),
    )
  }

  function failed(error) {
    show(error instanceof TypeError ? 'The service could not be reached.' : error.message)
  }

  byId('provision').addEventListener('click', () => {
    var code = readCode(scanned.value)
    if (code?.kind !== 'enroll') return show('That is not an enrollment code: it starts with serviceauth:enroll:')
    show('Setting up…')
    knob('devices', { token: scanned.value.trim(), model: 'Demo phone' })
      .then((result) => {
        remember({ deviceId: result.device.id, identifier: result.identity.identifier })
        show('This phone now signs in as ' + result.identity.identifier + '.')
        lookAgain()
      })
      .catch(failed)
  })

  byId('sign').addEventListener('click', () => {
    var code = readCode(scanned.value)
    if (code?.kind !== 'challenge') return show('That is not a sign-in code: it starts with serviceauth:challenge:')
    var current = device()
    if (!current) return show('Set this phone up first: scan an enrollment code.')
    show('Signing…')
    knob('challenges/' + encodeURIComponent(code.id) + '/sign', { deviceId: current.deviceId })
      .then(() => {
        show('Signed as ' + current.identifier + '. The sign-in page goes on by itself.')
        lookAgain()
      })
      .catch(failed)
  })

  byId('forget-phone').addEventListener('click', () => {
    remember(null)
    show('This phone is no longer set up.')
  })

  /** Fills a list with codes ({text, code}), each with a button that "scans" it. */
  function list(id, codes) {
    var target = byId(id)
    target.replaceChildren()
    if (!codes.length) target.appendChild(document.createElement('li')).textContent = 'None.'
    codes.forEach((code) => {
      var item = target.appendChild(document.createElement('li'))
      var button = item.appendChild(document.createElement('button'))
      button.type = 'button'
      button.textContent = 'Scan'
      button.addEventListener('click', () => {
        scanned.value = code.code
        show('Read ' + code.code)
      })
      item.appendChild(document.createTextNode(' ' + code.text))
    })
  }

  // The demo's one date format (demo/app/dates.ts): the enrol page and the e-mail read the same.
  var DATE_FORMAT = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' })
  function time(stamp) {
    return DATE_FORMAT.format(new Date(stamp)) + ' (UTC)'
  }

  // Only codes that still work, newest first: what is on a screen right now.
  function pending(items) {
    return items
      .filter((item) => item.state === 'pending')
      .reverse()
      .slice(0, 10)
  }

  // A sign-in code stays pending for two minutes after its page has closed; a page still open
  // asks for its status about every second (every few while the service is slow or refusing).
  // Codes not asked about for this long are on no screen. The service's clock is this
  // machine's: the demo runs both.
  var ON_SCREEN_MS = 10000
  var POLL_PATH = /^\/v1\/entity\/challenges\/([^/?]+)\/(status|token)/

  /** Challenge id -> when the service last heard a page ask about it (epoch ms). */
  function lastAskedAbout(requests) {
    var last = {}
    requests.forEach((request) => {
      var match = request.method === 'GET' && POLL_PATH.exec(request.path)
      if (match) last[decodeURIComponent(match[1])] = Math.max(last[decodeURIComponent(match[1])] || 0, request.at)
    })
    return last
  }

  /** Enrollment id -> the e-mail its code went out in (the service's outbox). */
  function emailedTo(messages) {
    var to = {}
    messages.forEach((message) => {
      if (message.enrollmentId) to[message.enrollmentId] = message
    })
    return to
  }

  function lookAgain() {
    return Promise.all([knob('enrollments'), knob('challenges'), knob('requests'), knob('outbox')])
      .then((found) => {
        // A code e-mailed is in a mailbox, which only the address's owner reads; the demo lists
        // it apart, so nobody mistakes it for one on a screen.
        var mailed = emailedTo(found[3])
        var enrollments = pending(found[0])
        var entry = (enrollment) => ({
          // The service names no identifier once the identity is gone (deleted, say); the e-mail
          // it sent, if any, still does.
          text:
            'Enrollment for ' +
            (enrollment.identifier ?? mailed[enrollment.id]?.identifier ?? 'an identity since deleted') +
            ', until ' +
            time(enrollment.expiresAt),
          code: 'serviceauth:enroll:' + enrollment.id,
        })
        list('enrollments', enrollments.filter((enrollment) => !mailed[enrollment.id]).map(entry))
        list(
          'mailed-enrollments',
          enrollments
            .filter((enrollment) => mailed[enrollment.id])
            .map((enrollment) => {
              var shown = entry(enrollment)
              return { text: 'E-mailed to ' + mailed[enrollment.id].to + ': ' + shown.text, code: shown.code }
            }),
        )
        var asked = lastAskedAbout(found[2])
        var onScreen = found[1].filter((challenge) => Date.now() - (asked[challenge.id] || 0) < ON_SCREEN_MS)
        list(
          'challenges',
          pending(onScreen).map((challenge) => ({
            text: 'Sign-in code ' + challenge.id + ', shown since ' + time(challenge.createdAt),
            code: 'serviceauth:challenge:' + challenge.id,
          })),
        )
      })
      .catch(failed)
  }

  byId('look-again').addEventListener('click', lookAgain)
  // Coming back from the tab with the code: what is on screen may have changed.
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) lookAgain()
  })
  showDevice()
  lookAgain()
})()
