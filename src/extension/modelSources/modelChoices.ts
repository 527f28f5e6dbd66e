/**
 * The entries of the model picker (Sprout: Select Model), as plain data: VS Code's chat models under
 * one heading (name, vendor and family, the input limit), the endpoint's models under another (or a
 * way to type a name when it lists none), the model in use marked. modelCommands.ts shows them.
 */
import type { LmModelInfo } from './lmMapping';
import type { ModelSource } from './modelSource';

export type ModelChoice = { source: 'vscode'; ref: string } | { source: 'openai'; name: string } | { source: 'openai'; typeName: true };

export interface PickerEntry {
  label: string;
  description?: string;
  detail?: string;
  /** A heading, not a choice. */
  separator?: boolean;
  choice?: ModelChoice;
}

export type EndpointListing = { baseUrl: string; models: readonly string[] } | { baseUrl: string; error: string };

export interface PickerInput {
  vscodeModels: readonly LmModelInfo[];
  /** Omitted when only VS Code's models are asked for. */
  endpoint?: EndpointListing;
  current: { source: ModelSource; name: string };
}

export const VSCODE_HEADING = 'Models in VS Code';
export const TYPE_NAME_LABEL = 'Type a model name…';

function inUse(description: string, current: boolean): string {
  return current ? `${description} · in use` : description;
}

function vscodeEntries(models: readonly LmModelInfo[], current: PickerInput['current']): PickerEntry[] {
  if (models.length === 0) return [];
  return [
    { label: VSCODE_HEADING, separator: true },
    ...models.map((m) => ({
      label: m.name,
      description: inUse(`${m.vendor} · ${m.family}`, current.source === 'vscode' && current.name === m.ref),
      detail: `${m.ref} · ${m.maxInputTokens.toLocaleString('en-US')} input tokens`,
      choice: { source: 'vscode' as const, ref: m.ref },
    })),
  ];
}

function endpointEntries(endpoint: EndpointListing, current: PickerInput['current']): PickerEntry[] {
  const models = 'models' in endpoint ? endpoint.models : [];
  const typeName: PickerEntry = {
    label: TYPE_NAME_LABEL,
    description: 'one the endpoint does not list',
    ...('error' in endpoint ? { detail: `Could not list the endpoint's models: ${endpoint.error}` } : {}),
    choice: { source: 'openai', typeName: true },
  };
  return [
    { label: `OpenAI-compatible endpoint · ${endpoint.baseUrl}`, separator: true },
    ...models.map((name) => ({
      label: name,
      ...(current.source === 'openai' && current.name === name ? { description: 'in use' } : {}),
      choice: { source: 'openai' as const, name },
    })),
    typeName,
  ];
}

export function modelPickerEntries(input: PickerInput): PickerEntry[] {
  return [...vscodeEntries(input.vscodeModels, input.current), ...(input.endpoint ? endpointEntries(input.endpoint, input.current) : [])];
}
