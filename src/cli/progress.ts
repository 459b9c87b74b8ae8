import type { Writable } from 'node:stream';

const WIDTH = 20;
const REDRAW_MS = 100;

/** A one-line progress bar (bytes read of total, lines/s), drawn only when the stream is a terminal. */
export class ProgressBar {
  private readonly enabled: boolean;
  private readonly started = Date.now();
  private lastDraw = 0;

  constructor(
    private readonly stream: Writable & { isTTY?: boolean; columns?: number },
    private readonly totalBytes: number,
  ) {
    this.enabled = stream.isTTY === true;
  }

  update(bytes: number, lines: number, force = false): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    const ratio = this.totalBytes > 0 ? Math.min(1, bytes / this.totalBytes) : 0;
    const filled = Math.round(ratio * WIDTH);
    const rate = lines / Math.max(0.001, (now - this.started) / 1000);
    const line = `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}%  ${mib(bytes)}/${mib(this.totalBytes)} MiB  ${lines.toLocaleString('en-US')} lines  ${Math.round(rate).toLocaleString('en-US')}/s`;
    this.stream.write(`\r${line.slice(0, (this.stream.columns ?? 120) - 1)}\x1b[K`);
  }

  /** Clears the bar so that messages and the summary start on a clean line. */
  clear(): void {
    if (this.enabled) this.stream.write('\r\x1b[K');
  }
}

const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
