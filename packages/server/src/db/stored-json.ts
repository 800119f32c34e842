/** What reading JSON through a schema needs of it (zod's schemas fit). */
interface JsonShape<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/** JSON text stored earlier, read back through its contract: undefined when it is not JSON or no longer in the shape. */
export function parseStoredJson<T>(schema: JsonShape<T>, text: string): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
