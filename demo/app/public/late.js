// For the late=1 fixture: widgets that appear and disappear after the page has loaded, as in a
// single-page app. The embed has to notice both on its own.
;(() => {
  var template = document.getElementById('late-widget')
  var container = document.getElementById('late-widgets')
  if (!template || !container) return

  document.getElementById('add-widget').addEventListener('click', () => {
    container.appendChild(template.content.cloneNode(true))
  })
  document.getElementById('remove-widget').addEventListener('click', () => {
    if (container.lastElementChild) container.lastElementChild.remove()
  })
})()
