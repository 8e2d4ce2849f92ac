// @ts-check
// `vite build examples/vue` writes the login page to examples/vue/dist, which server.mjs serves.
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [vue()],
  build: { outDir: 'dist', emptyOutDir: true },
  logLevel: 'warn',
})
