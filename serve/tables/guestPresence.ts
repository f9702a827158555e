/**
 * Which guest seats' people are connected, and their connections (a Map seat → connection), and
 * when each away person left: one who left keeps their turn for a grace period (`--stand-in-ms`),
 * so a reload does not hand it to the stand-in bot.
 */
export class GuestPresence<Owner> extends Map<number, Owner> {
  private readonly leftAt = new Map<number, number>();

  override set(seat: number, owner: Owner): this {
    this.leftAt?.delete(seat);
    return super.set(seat, owner);
  }

  /** The seat's person left at `now`. */
  leave(seat: number, now: number): void {
    this.delete(seat);
    this.leftAt.set(seat, now);
  }

  /** How much longer an away seat's turn waits for its person (0: not a seat whose person just left). */
  graceLeft(seat: number, now: number, graceMs: number): number {
    const left = this.leftAt.get(seat);
    return left === undefined ? 0 : Math.max(0, left + graceMs - now);
  }

  override clear(): void {
    this.leftAt?.clear();
    super.clear();
  }
}
