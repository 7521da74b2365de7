/** A transfer's recent speed: an exponentially weighted average over samples at least 200 ms apart. */
export class SpeedMeter {
  private lastBytes = 0;
  private lastAt = Date.now();
  private rate: number | null = null;

  sample(bytes: number, now = Date.now()): number | null {
    const dt = now - this.lastAt;
    if (dt < 200) return this.rate;
    const instant = ((bytes - this.lastBytes) * 1000) / dt;
    this.rate = this.rate === null ? instant : 0.7 * this.rate + 0.3 * instant;
    this.lastBytes = bytes;
    this.lastAt = now;
    return Math.max(0, Math.round(this.rate));
  }
}
