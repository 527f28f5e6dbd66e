/**
 * Reads the hook context the agent sends in a hook request's `_meta["sprout/hook"]` (SPEC 1). Hook
 * output is advisory and the context is optional: a missing or malformed value is simply absent.
 */
import { z } from 'zod';

const HookContextSchema = z.object({
  event: z.string().optional(),
  sessionId: z.string().optional(),
  rejectionsUsed: z.number().optional(),
  rejectionBudget: z.number().optional(),
  afterObjection: z.boolean().optional(),
});

export type HookContext = z.infer<typeof HookContextSchema>;

export const HOOK_META_KEY = 'sprout/hook';

export function readHookContext(meta: Record<string, unknown> | undefined): HookContext | undefined {
  const parsed = HookContextSchema.safeParse(meta?.[HOOK_META_KEY]);
  return parsed.success ? parsed.data : undefined;
}
