// The demo app's own collections in the store it shares with the mock service: its users and
// their sessions (users.ts, sessions.ts). The mock keeps only its own; whoever opens a store for
// the demo names these too (`{ collections: APP_COLLECTIONS }`), so that they are written,
// exported and imported with the service's state.
export const APP_COLLECTIONS = ['app-users', 'app-sessions'] as const
