import { CONFIG_VARIABLES, type ConfigVariable } from './config-schema.js';

/** Variables as a Markdown table (name, default, description), as docs/configuration.md shows them. */
export function variablesMarkdownTable(variables: readonly ConfigVariable[]): string {
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  const rows = variables.map((variable) => `| \`${variable.name}\` | ${escape(variable.default)} | ${escape(variable.description)} |`);
  return ['| Variable | Default | Description |', '|---|---|---|', ...rows].join('\n');
}

/** The server's variables as docs/configuration.md lists them (`npm run docs:config` writes it). */
export function configVariablesMarkdown(): string {
  return variablesMarkdownTable(CONFIG_VARIABLES);
}
