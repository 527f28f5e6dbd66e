/**
 * The agent core's public surface for hosts (extension, CLI) and adapters: the session, the shared
 * vocabulary and ports, settings parsing, tool naming, and the pure rules (handy for hosts that show
 * or check them).
 */
export * from './messages';
export * from './events';
export * from './ports';
export * from './settings';
export * from './toolNames';
export * from './hookEvidence';
export { AgentSession, type AgentSessionOptions, type SessionState } from './session';
export { activeRecords, lastGreen, rewindPlan, turnsOf, type LastGreen, type RewindPlan, type RewindTurn, type StopCheck, type ToolCallRef, type TurnVerdict } from './rewind';
export { applyEvent, replayEvents, emptyReplayState, type ReplayState } from './replayState';
export {
  HOOK_TEXT_MAX_BYTES,
  HOOK_TRUNCATION_MARKER,
  buildHookPair,
  capUtf8,
  hookEnvelopeContent,
  isSyntheticHookCallId,
  normaliseHookText,
} from './hookEnvelope';
export { CANCELLED_TOOL_RESULT, HistoryError, assertValidHistory, isValidHistory, repairHistory, validateHistory, type HistoryProblem } from './historyValidity';
export { HOOK_META_KEY, HookCaller, KILL_AFTER_TIMEOUTS, hookMeta, killReason, type HookCallContext, type HookCallOutcome } from './hookCaller';
export { budgetAtPromptStart, collectObjections, decideGate, ignoredHookServers, serversWithHook, type GateDecision, type GateState } from './stopGateRules';
export {
  compactionLimit,
  dropOldestTurns,
  estimatePromptTokens,
  renderForSummary,
  shouldCompact,
  splitTurns,
  SUMMARY_PREFIX,
} from './compactionRules';
export { truncateToolResult } from './toolRunner';
export { parseToolArguments, wireSafeArguments } from './toolArguments';
export { withAttachments, type PromptAttachment, type PromptOptions } from './promptAttachments';
export { planRound } from './promptRunner';
export { roundRequest, toolSpecs, type RoundRequest } from './roundRequest';
export { MODES, isMode, modeAllows, modeLabel, modeRefusal, modeSystemText, modeTools, type Mode } from './modes';
export { IMAGE_TYPES, MAX_IMAGE_BYTES, MAX_IMAGES_PER_MESSAGE, checkImage, checkImages, imageLabel, imageTokens, type ImageCheck } from './imageParts';
