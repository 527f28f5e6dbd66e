/** The few JSON Schema fields the conformance client reads to make arguments. */
export interface JSONSchema7 {
  type?: string;
  properties?: Record<string, JSONSchema7>;
  enum?: unknown[];
}
