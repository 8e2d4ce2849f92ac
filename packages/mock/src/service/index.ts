// `@service-auth/mock/service`: the mock service in your own process, beside your app, with the
// store it keeps its state in (memory, or a data directory a restart finds again), and the
// command's options for a start script of your own. The test kit (`@service-auth/mock`) starts
// it for a test; this is for running it as a dev server does. No side effects.
export { startService, type ServiceHandle, type ServiceOptions } from './server.js'
export type { ServiceSettings } from './settings.js'
export type { ApiKeyOptions, Permission } from './access/api-keys.js'
export { generateCredentials, type Credentials } from '../common/credentials.js'
export { memoryStore, openDataStore, type StoreOptions } from '../store/open-store.js'
export type { Collection, Store } from '../store/store.js'
export { answeringWhenStored } from '../store/stored-answers.js'
export { rememberedCredentials } from '../store/remembered-credentials.js'
export { describeState, exportState, openState, type StateOptions } from '../command/state-options.js'
export { readStartOptions, type StartOptions } from '../command/start-options.js'
