/**
 * A bounded byte buffer that keeps the most recent `capacity` bytes written to it (an agent's
 * stderr, a terminal's output). Memory stays bounded however much is written (peers.md §3: goose
 * crashed on 2 GB of buffered child stderr).
 */
export class ByteRing {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Bytes dropped from the front so far. */
  dropped = 0;

  constructor(readonly capacity: number) {}

  /** Appends bytes, dropping the oldest beyond capacity. */
  push(data: Buffer | string): void {
    let buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (buf.length >= this.capacity) {
      this.dropped += this.size + buf.length - this.capacity;
      buf = buf.subarray(buf.length - this.capacity);
      this.chunks = [Buffer.from(buf)];
      this.size = buf.length;
      return;
    }
    this.chunks.push(buf);
    this.size += buf.length;
    while (this.size > this.capacity) {
      const first = this.chunks[0];
      const excess = this.size - this.capacity;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
        this.dropped += first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
        this.dropped += excess;
      }
    }
  }

  /** Number of bytes held. */
  get length(): number {
    return this.size;
  }

  /** True when bytes were dropped at some point. */
  get truncated(): boolean {
    return this.dropped > 0;
  }

  /** The held bytes as UTF-8; a character cut at the front is dropped rather than shown as U+FFFD. */
  text(): string {
    const all = Buffer.concat(this.chunks, this.size);
    let start = 0;
    if (this.dropped > 0) while (start < all.length && start < 4 && (all[start] & 0xc0) === 0x80) start++;
    return all.subarray(start).toString('utf8');
  }
}
