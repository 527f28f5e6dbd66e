/** The one way every layer turns a caught value into text for a message or a log line. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
