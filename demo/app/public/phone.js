// The demo's stand-in for the user's phone: it signs the challenge the widget shows, through
// the mock service's knob endpoint, as the phone app would after scanning the code.
;(function () {
  var panel = document.querySelector('section[data-service-url]')
  if (!panel) return
  var serviceUrl = panel.getAttribute('data-service-url')
  var button = panel.querySelector('#sign-with-phone')
  var identifier = panel.querySelector('#phone-identifier')
  var status = panel.querySelector('#phone-status')
  var challengeId = null

  function show(text) {
    status.textContent = text
  }

  document.addEventListener('service-auth:ready', function (event) {
    challengeId = event.detail && event.detail.challengeId
    button.disabled = !challengeId
    show(challengeId ? 'Code ' + challengeId + ' is on screen.' : 'Waiting for a code.')
  })
  // The widget makes a new code by itself; until it shows, there is nothing to sign.
  document.addEventListener('service-auth:expired', function () {
    challengeId = null
    button.disabled = true
    show('The code expired.')
  })

  button.addEventListener('click', function () {
    if (!challengeId) return
    button.disabled = true
    show('Signing…')
    fetch(serviceUrl + '/__knobs/challenges/' + encodeURIComponent(challengeId) + '/sign', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ identifier: identifier.value || 'user@example.com' }),
    })
      .then(function (response) {
        if (response.ok) show('Signed. The page should now sign you in.')
        else if (response.status === 404) show('The service has no such code, or its knobs are off (SERVICE_KNOBS=1).')
        else show('The service answered ' + response.status + '.')
      })
      .catch(function () {
        show('The service could not be reached.')
      })
      .finally(function () {
        button.disabled = !challengeId
      })
  })
})()
