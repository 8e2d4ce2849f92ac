// What `service-auth-mock --help` prints, and the README's table of the options: both written from
// the options table (options.ts), so neither can name an option the command does not have, or
// miss one it has. A test holds the README's table to optionsTable().
import { COMMAND_OPTIONS, type CommandOption } from './options.js'

const rows = Object.values(COMMAND_OPTIONS) as CommandOption[]

/** How the help and the README write a default. */
const shown = (value: string | number | boolean) => (value === true ? 'on' : value === false ? 'off' : String(value))

/** The lines of a block of the help: each setting's name (as `name` writes it), its doc, and the other ways to give it. */
function block(settings: CommandOption[], name: (setting: CommandOption) => string): string {
  const width = Math.max(...settings.map((setting) => name(setting).length))
  return settings
    .map((setting) => {
      const also = [
        setting.default === undefined ? undefined : `default ${shown(setting.default)}`,
        setting.flag && setting.env ? `or ${setting.env}` : undefined,
        setting.config && (setting.flag || setting.env) ? `"${setting.config}" in the config file` : undefined,
        setting.multiple ? 'repeatable' : undefined,
      ].filter(Boolean)
      return `  ${name(setting).padEnd(width)}  ${setting.doc}${also.length ? ` (${also.join('; ')})` : ''}`
    })
    .join('\n')
}

export function commandHelp(): string {
  const flagged = rows.filter((row) => row.flag)
  const variables = rows.filter((row) => !row.flag && row.env)
  const fields = rows.filter((row) => !row.flag && !row.env)
  return `Usage: service-auth-mock [options]

Starts the mock sign-in service on 127.0.0.1: the whole service interface, its state kept in a
data directory, with the /__knobs/ test endpoints and the test keys (test-signs, test-expires,
test-unavailable).

Options:
${block(flagged, ({ flag, value }) => `--${flag}${value ? ` ${value}` : ''}`)}

Environment:
${block(variables, ({ env }) => env!)}

Config file (--config FILE) fields, besides those above:
${block(fields, ({ config }) => config!)}

Options win over variables, variables over the file.

service-auth-mock check-controller --help: check your controller against a running mock.`
}

/** The README's options table, a row per setting: `| Option | Variable | Config file | Default | What it does |`. */
export function optionsTable(): string[] {
  const code = (text: string | undefined) => (text ? `\`${text}\`` : '')
  return [
    '| Option | Variable | Config file | Default | |',
    '|---|---|---|---|---|',
    ...rows.map((row) => {
      const flag = row.flag ? code(`--${row.flag}${row.value ? ` ${row.value}` : ''}`) : ''
      const value = row.default === undefined ? '' : typeof row.default === 'string' ? code(row.default) : shown(row.default)
      return `| ${flag} | ${code(row.env)} | ${code(row.config)} | ${value} | ${row.doc} |`.replace(/ {2}\|/g, ' |')
    }),
  ]
}
