/** A tool as tools/list shows it (the JSON Schema an agent reads). */
export interface ListedTool {
  name: string;
  description?: string | undefined;
  inputSchema: { properties?: Record<string, object> | undefined; required?: string[] | undefined };
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The first sentence of a description: the table's summary of the tool. */
const firstSentence = (text: string) => /^.*?[.!?](?=\s|$)/s.exec(text)?.[0] ?? text;

const names = (list: string[]) => list.map((name) => `\`${name}\``).join(', ');

/**
 * The tools table of docs/api.md, made from the tools' listed schemas (a test compares it with the page),
 * so a field added to a contract shows in the docs as it shows to agents.
 */
export function toolsTable(tools: readonly ListedTool[]): string {
  const rows = tools.map((tool) => {
    const properties = Object.keys(tool.inputSchema.properties ?? {});
    const required = tool.inputSchema.required ?? [];
    const optional = properties.filter((name) => !required.includes(name));
    const args = [required.length ? `required: ${names(required)}` : '', optional.length ? `optional: ${names(optional)}` : '']
      .filter(Boolean)
      .join('; ');
    return `| \`${tool.name}\` | ${cell(firstSentence(tool.description ?? ''))} | ${cell(args || 'none')} |`;
  });
  return ['| Tool | What it does | Arguments |', '|---|---|---|', ...rows].join('\n');
}
