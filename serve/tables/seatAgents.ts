/** What each bot agent of one table plays, resolved once per table: its seats keep it to the end of the game. */
import type { ResolvedAgent } from '../../agents/resolve.js';

export class SeatAgents {
  private readonly resolved = new Map<string, Promise<ResolvedAgent>>();
  constructor(private readonly resolve: (agent: string) => Promise<ResolvedAgent>) {}

  /** The agent's resolution, shared by every seat it plays; a failed one is tried again next time. */
  of(agent: string): Promise<ResolvedAgent> {
    const known = this.resolved.get(agent);
    if (known) return known;
    const resolved = this.resolve(agent);
    this.resolved.set(agent, resolved);
    resolved.catch(() => this.resolved.delete(agent));
    return resolved;
  }
}
