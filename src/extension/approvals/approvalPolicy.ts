/**
 * The one approval policy of this window's chats (the chat view's and each `sprout` task's): the
 * `sprout.tools.autoApprove` setting says what runs unasked, and "Always allow in this workspace"
 * adds to it. Only who answers the question differs between them, so that is the argument.
 */
import { writeSetting } from '../settings/configReader';
import type { ExtensionSettings } from '../settings/settingsMapping';
import type { ApprovalPolicy } from './approvalToolHost';

export function settingsApprovalPolicy(settings: () => ExtensionSettings, ask: ApprovalPolicy['ask']): ApprovalPolicy {
  return {
    autoApproved: (name) => settings().autoApprove.includes(name),
    ask,
    allowInWorkspace: async (name) => {
      const current = settings().autoApprove;
      if (!current.includes(name)) await writeSetting('sprout.tools.autoApprove', [...current, name]);
    },
  };
}
