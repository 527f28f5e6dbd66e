/**
 * `--json`'s `usage_total` line, printed just before each prompt's `outcome`: the tokens of the agent's own
 * model calls (its `usage` events, a subagent's included) and, apart, those the model spent answering
 * MCP servers' sampling requests (`sampling_answered` with `usage`), so a consumer reads one line for
 * what the run cost instead of summing two kinds of events.
 */
import type { AgentEvent } from '../agent/events';
import type { Usage } from '../agent/messages';

interface Tally {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface UsageTotalLine {
  type: 'usage_total';
  model: Tally & { calls: number };
  sampling: Tally & { requests: number };
  totalTokens: number;
}

const zero = (): Tally => ({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });

function add(into: Tally, usage: Usage): void {
  into.promptTokens += usage.promptTokens;
  into.completionTokens += usage.completionTokens;
  into.totalTokens += usage.totalTokens;
}

export class UsageTotals {
  private readonly model = zero();
  private calls = 0;
  private readonly sampling = zero();
  private requests = 0;

  see(event: AgentEvent): void {
    if (event.type === 'subagent_event') return this.see(event.event);
    if (event.type === 'usage') {
      add(this.model, event.usage);
      this.calls += 1;
    } else if (event.type === 'sampling_answered' && event.usage !== undefined) {
      add(this.sampling, event.usage);
      this.requests += 1;
    }
  }

  line(): UsageTotalLine {
    return {
      type: 'usage_total',
      model: { ...this.model, calls: this.calls },
      sampling: { ...this.sampling, requests: this.requests },
      totalTokens: this.model.totalTokens + this.sampling.totalTokens,
    };
  }
}
