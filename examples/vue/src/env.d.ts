// What vue-tsc needs to check this example: .vue files are modules, and Vite's client types.
/// <reference types="vite/client" />
