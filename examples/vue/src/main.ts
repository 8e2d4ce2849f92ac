// The login page's script: the Vue app, with the service's address and key that the server put on
// its root element (they are the server's settings, not the build's).
import { createApp } from 'vue'
import 'service-auth/style.css'
import App from './App.vue'

const root = document.getElementById('app')!
createApp(App, { api: root.dataset.api!, apiKey: root.dataset.key! }).mount(root)
